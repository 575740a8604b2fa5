import { authorizedDestination, ledgerWithdrawals, setUpPayouts } from '../payouts/support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from '../payouts/support/payout-test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';

/**
 * The effect of a POST with an Idempotency-Key is keyed by the key's record: when storing the answer fails after
 * the effect was committed (the client gets a 500), a retry with the same key and body answers what the first run
 * made, and never makes a second payout, batch, subscription, plan or endpoint.
 */
describe('Idempotency-Key: an answer that could not be stored', () => {
  let t: PayoutTestApp;
  let destinationId: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success)).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  afterEach(async () => {
    await t.dataSource.query('DROP TRIGGER IF EXISTS fail_idempotency_answer ON idempotency_records');
  });

  /** From now on every write of an answer into idempotency_records fails, after the handler's effect committed. */
  const failAnswerWrites = async () => {
    await t.dataSource.query(`CREATE OR REPLACE FUNCTION fail_idempotency_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault: the answer cannot be stored'; END $$`);
    await t.dataSource.query(`CREATE TRIGGER fail_idempotency_answer BEFORE UPDATE ON idempotency_records
      FOR EACH ROW WHEN (NEW.status_code IS NOT NULL) EXECUTE FUNCTION fail_idempotency_answer()`);
  };
  const healAnswerWrites = () => t.dataSource.query('DROP TRIGGER fail_idempotency_answer ON idempotency_records');

  const count = async (sql: string, params: unknown[]): Promise<number> => (await t.dataSource.query<{ n: number }[]>(sql, params))[0].n;

  /** Sends the POST while answers cannot be stored (500), then again once they can: the second answer, and a replay. */
  async function postThroughLostAnswer(path: string, key: string, body: object, expected: number) {
    await failAnswerWrites();
    const lost = await t.api().post(path).set('Idempotency-Key', key).send(body);
    expect(lost.status).toBe(500);
    await healAnswerWrites();
    const retried = await t.api().post(path).set('Idempotency-Key', key).send(body);
    expect(retried.status).toBe(expected);
    const replayed = await t.api().post(path).set('Idempotency-Key', key).send(body);
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: expected, body: retried.body });
    return retried.body;
  }

  it('POST /payouts: one payout, and one withdrawal at the provider', async () => {
    const body = { destinationId, amount: 4321, currency: 'RUB', metadata: { case: 'lost-answer' } };
    const payout = await postThroughLostAnswer('/api/v1/payouts', 'payout-lost-answer', body, 202);
    expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE metadata->>'case' = 'lost-answer'`, [])).toBe(1);

    const { value: settled } = await runUntil(t, async () => {
      const read = (await t.api().get(`/api/v1/payouts/${payout.id}`)).body;
      return read.status === 'succeeded' ? read : undefined;
    });
    expect(settled).toMatchObject({ id: payout.id, amount: 4321 });
    const withdrawals = (await ledgerWithdrawals(t)).filter((w) => w.amount === 4321);
    expect(withdrawals).toHaveLength(1);
    expect(withdrawals[0].status).toBe('Succeeded');
  });

  it('POST /payouts/batches: one batch with its payouts once', async () => {
    const items = [1, 2, 3].map((n) => ({ destinationId, amount: 7000 + n, currency: 'RUB', metadata: { case: 'lost-batch' } }));
    const batch = await postThroughLostAnswer('/api/v1/payouts/batches', 'batch-lost-answer', { items }, 202);
    expect(batch).toMatchObject({ total: 3 });
    expect(await count('SELECT count(*)::int AS n FROM payout_batches', [])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE metadata->>'case' = 'lost-batch'`, [])).toBe(3);
    expect(await count('SELECT count(*)::int AS n FROM payouts WHERE batch_id = $1', [batch.id])).toBe(3);
  });

  it('POST /subscriptions and POST /plans: one of each, with one subscription.created event', async () => {
    const planBody = { name: 'Lost answer', product: 'Lost answer', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] };
    const plan = await postThroughLostAnswer('/api/v1/plans', 'plan-lost-answer', planBody, 201);
    expect(await count(`SELECT count(*)::int AS n FROM plans WHERE name = 'Lost answer'`, [])).toBe(1);

    const customer = (await t.api().post('/api/v1/customers').send({ email: 'lost-answer@example.com' }).expect(201)).body;
    const subscription = await postThroughLostAnswer('/api/v1/subscriptions', 'subscription-lost-answer', { customerId: customer.id, planId: plan.id }, 201);
    expect(subscription).toMatchObject({ customerId: customer.id, planId: plan.id, status: 'incomplete' });
    expect(await count('SELECT count(*)::int AS n FROM subscriptions WHERE customer_id = $1', [customer.id])).toBe(1);
    const created = (await t.api().get('/api/v1/events?type=subscription.created').expect(200)).body.items;
    expect(created.filter((e: { data: { object: { id: string } } }) => e.data.object.id === subscription.id)).toHaveLength(1);
  });

  it('POST /webhook-endpoints: one endpoint, its secret answered to the retry that first shows it', async () => {
    const body = { url: 'http://127.0.0.1:9/lost-answer' };
    await failAnswerWrites();
    expect((await t.api().post('/api/v1/webhook-endpoints').set('Idempotency-Key', 'endpoint-lost-answer').send(body)).status).toBe(500);
    await healAnswerWrites();
    const retried = await t.api().post('/api/v1/webhook-endpoints').set('Idempotency-Key', 'endpoint-lost-answer').send(body).expect(201);
    expect(retried.body.secret).toMatch(/^whsec_/);
    expect(await count(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE url = $1`, [body.url])).toBe(1);
  });

  it('still lets a request refused with a 4xx be corrected and sent again with the same key', async () => {
    const bad = { destinationId, amount: 100, currency: 'USD' };
    expect((await t.api().post('/api/v1/payouts').set('Idempotency-Key', 'payout-corrected').send(bad)).status).toBe(422);
    const good = await t.api().post('/api/v1/payouts').set('Idempotency-Key', 'payout-corrected').send({ ...bad, currency: 'RUB' });
    expect(good.status).toBe(202);
  });
});
