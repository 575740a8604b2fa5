import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { MerchantReceiver } from '../webhooks/support/merchant-receiver';
import { createEndpoint, FAST_WEBHOOK_TUNING } from '../webhooks/support/webhook-fixtures';

interface Listed {
  id: string;
  type: string;
  data: { object: { id: string } };
  about: { customerId: string | null; customerName: string | null; planId: string | null; planName: string | null; amount: number | null; currency: string | null };
}

/**
 * The events list names what each event is about (the customer's email or phone, the plan's name, the amount) rather
 * than only ids, a page at a time in a fixed number of reads; a webhook endpoint's deliveries name their event's type.
 */
describe('names in the events and deliveries lists', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;

  beforeAll(async () => {
    await resetDatabase();
    receiver = await MerchantReceiver.start();
    t = await startTestApp({ env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000' }, webhookTuning: { ...FAST_WEBHOOK_TUNING, timeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("names each event's customer and plan as they are now, and leaves out what does not apply", async () => {
    const plan = (await t.api().post('/api/v1/plans').send({ name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 99000 }] }).expect(201)).body;
    const anna = (await t.api().post('/api/v1/customers').send({ email: 'anna@example.com' }).expect(201)).body;
    const phoneOnly = (await t.api().post('/api/v1/customers').send({ phone: '+79990001122' }).expect(201)).body;
    const nameless = (await t.api().post('/api/v1/customers').send({}).expect(201)).body;
    const subs = [];
    for (const customer of [anna, phoneOnly, nameless]) subs.push((await t.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id }).expect(201)).body);
    // Renamed after the events: the list names it as it is now.
    await t.api().patch(`/api/v1/plans/${plan.id}`).send({ name: 'Pro 2027' }).expect(200);

    const items = (await t.api().get('/api/v1/events?type=subscription.created&limit=10').expect(200)).body.items as Listed[];
    const bySubscription = new Map(items.map((e) => [e.data.object.id, e.about]));
    expect(subs.map((s) => bySubscription.get(s.id))).toEqual([
      { customerId: anna.id, customerName: 'anna@example.com', planId: plan.id, planName: 'Pro 2027', amount: null, currency: null },
      { customerId: phoneOnly.id, customerName: '+79990001122', planId: plan.id, planName: 'Pro 2027', amount: null, currency: null },
      { customerId: nameless.id, customerName: null, planId: plan.id, planName: 'Pro 2027', amount: null, currency: null },
    ]);
    // The single event is exactly the webhook body: no `about` there.
    const one = (await t.api().get(`/api/v1/events/${items[0].id}`).expect(200)).body;
    expect(one).not.toHaveProperty('about');
  });

  it('reads the names of a whole page in a fixed number of statements, however many customers it holds', async () => {
    const plan = (await t.api().post('/api/v1/plans').send({ name: 'Many', product: 'Many', currency: 'RUB', interval: 'month', lines: [{ product: 'M', price: 100 }] }).expect(201)).body;
    for (let i = 0; i < 12; i++) {
      const customer = (await t.api().post('/api/v1/customers').send({ email: `many-${i}@example.com` }).expect(201)).body;
      await t.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id }).expect(201);
    }
    const countStatements = async (limit: number) => {
      const { DataSource } = await import('typeorm');
      const dataSource = t.app.get(DataSource);
      const query = dataSource.query.bind(dataSource);
      const texts: string[] = [];
      dataSource.query = ((sql: string, ...rest: unknown[]) => (texts.push(sql), query(sql, ...(rest as [])))) as typeof dataSource.query;
      try {
        const body = (await t.api().get(`/api/v1/events?type=subscription.created&limit=${limit}`).expect(200)).body as { items: Listed[] };
        expect(body.items.every((e) => e.about.customerName !== null)).toBe(true);
      } finally {
        dataSource.query = query;
      }
      // The customers' names statement (other work, such as the customers' follower, reads the table meanwhile).
      return texts.filter((sql) => sql.includes('COALESCE(email, phone)')).length;
    };
    expect([await countStatements(2), await countStatements(12)]).toEqual([1, 1]);
  });

  it('names the event type of each delivery', async () => {
    const endpoint = await createEndpoint(t.api, { url: receiver.url });
    const plan = (await t.api().post('/api/v1/plans').send({ name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'B', price: 50000 }] }).expect(201)).body;
    const boris = (await t.api().post('/api/v1/customers').send({ email: 'boris@example.com' }).expect(201)).body;
    await t.api().post('/api/v1/subscriptions').send({ customerId: boris.id, planId: plan.id }).expect(201);
    const attempts = await waitFor(
      async () => (await t.api().get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`).expect(200)).body.items as { eventId: string; eventType: string | null }[],
      (items) => items.length > 0,
      { timeoutMs: 30_000, everyMs: 100, what: 'a delivery to the endpoint' },
    );
    const event = (await t.api().get(`/api/v1/events/${attempts[0].eventId}`).expect(200)).body;
    expect(attempts[0].eventType).toBe(event.type);
    expect(attempts[0].eventType).toBe('subscription.created');
  });
});
