import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { MerchantReceiver } from './support/merchant-receiver';
import { allEvents, createEndpoint, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

const MAX_ENDPOINTS = 5;

/**
 * Many requests at once against the webhook limits: the endpoint cap holds however many creates race, and a
 * redelivery repeated while its copy still waits to be sent queues nothing more. No scheduler: queued deliveries
 * stay queued, so what the requests made is what the test counts.
 */
describe('webhook endpoints and redeliveries under concurrent requests', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;

  beforeAll(async () => {
    await resetDatabase();
    receiver = await MerchantReceiver.start();
    t = await startTestApp({ webhookTuning: { ...FAST_WEBHOOK_TUNING, maxEndpoints: MAX_ENDPOINTS } });
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  afterEach(async () => {
    for (const endpoint of (await t.api().get('/api/v1/webhook-endpoints?limit=200')).body.items) await t.api().delete(`/api/v1/webhook-endpoints/${endpoint.id}`).expect(200);
  });

  it('makes at most the cap of endpoints when 40 creates race, and refuses the others with 422', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => t.api().post('/api/v1/webhook-endpoints').send({ url: `${receiver.url}?n=${i}` })));
    const listed = (await t.api().get('/api/v1/webhook-endpoints?limit=200')).body.items as { id: string }[];
    expect(listed).toHaveLength(MAX_ENDPOINTS);
    expect(answers.filter((a) => a.status === 201).map((a) => a.body.id).sort()).toEqual(listed.map((e) => e.id).sort());
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.code])).toEqual(Array.from({ length: 40 - MAX_ENDPOINTS }, () => [422, 'business_rule']));
  });

  it('queues one copy per endpoint when 60 redeliveries of an event race, and answers that copy while it waits to be sent', async () => {
    const event = await subscriptionCreated();
    // Endpoints made after the event: none of them has a copy of it yet.
    const endpoints = [];
    for (let i = 0; i < 3; i++) endpoints.push(await createEndpoint(t.api, { url: `${receiver.url}?e=${i}` }));

    const answers = await Promise.all(Array.from({ length: 60 }, () => t.api().post(`/api/v1/events/${event.id}/redeliver`).send({})));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 60 }, () => 202));
    const named = new Set(answers.flatMap((a) => (a.body.deliveries as { id: string }[]).map((d) => d.id)));
    expect(named.size).toBe(endpoints.length);
    for (const answer of answers) expect(answer.body.deliveries.map((d: { endpointId: string }) => d.endpointId).sort()).toEqual(endpoints.map((e) => e.id).sort());

    // One endpoint named: the copy queued for it is answered again, and still nothing more is queued.
    const one = await t.api().post(`/api/v1/events/${event.id}/redeliver`).send({ endpointId: endpoints[0].id }).expect(202);
    expect(one.body.deliveries).toHaveLength(1);
    expect(named.has(one.body.deliveries[0].id)).toBe(true);
    const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [event.id]);
    expect(n).toBe(endpoints.length);
  });

  /** A subscription.created event: a customer without a card and a plan are enough. */
  async function subscriptionCreated(): Promise<{ id: string }> {
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    const customer = await t.api().post('/api/v1/customers').send({}).expect(201);
    const sub = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
    return until(async () => (await allEvents(t.api, 'subscription.created')).find((e) => e.data.object.id === sub.body.id), 5_000, 'the event');
  }
});
