import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

/** The revenue_* gauges answer from a snapshot at most a minute old, read again at once when the month turns. */
describe('revenue gauges', () => {
  let t: TestApp;
  let db: DataSource;
  let customerId: string;
  let planId: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    db = t.app.get(DataSource);
    [{ id: customerId }] = await db.query(`INSERT INTO customers (provider_customer_id, shop_id, status) VALUES ('c1', 'shop', 'ready') RETURNING id`);
    [{ id: planId }] = await db.query(
      `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id) VALUES ('m', 'm', 'RUB', 'month', 1, 0, '[]', 99000, 'shop') RETURNING id`,
    );
  });

  afterAll(async () => {
    await t.close();
  });

  const subscribe = async (at: string) => {
    const [row] = await db.query(`INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at) VALUES ($1, $2, 'active', 'UTC', $3) RETURNING id`, [customerId, planId, at]);
    await db.query(`INSERT INTO subscription_events (subscription_id, type, to_status, occurred_at, created_at) VALUES ($1, 'created', 'active', $2, $2)`, [row.id, at]);
  };
  const mrr = async () => (await t.api().get('/metrics').expect(200)).text.match(/^revenue_mrr\{currency="RUB"\} (\d+)$/m)?.[1];

  it('shows the snapshot within a minute, and the new month as soon as it starts', async () => {
    await subscribe('2027-03-02T00:00:00Z');
    await t.api().post('/api/v1/test-clock').send({ now: '2027-03-15T00:00:00.000Z' }).expect(200);
    expect(await mrr()).toBe('99000');

    // A second subscription: the scrapes of the next minute still answer from the first read.
    await subscribe('2027-03-10T00:00:00Z');
    expect(await mrr()).toBe('99000');
    expect(await mrr()).toBe('99000');

    await t.api().post('/api/v1/test-clock').send({ now: '2027-04-01T00:00:00.000Z' }).expect(200);
    expect(await mrr()).toBe('198000');
  });
});
