import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { MerchantReceiver } from './support/merchant-receiver';
import { allAttempts, allEvents, createEndpoint, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;
const UNKNOWN = '0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

describe('Webhook endpoints through the admin API', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  const logs: string[] = [];

  beforeAll(async () => {
    await resetDatabase();
    receiver = await MerchantReceiver.start();
    t = await startTestApp({
      env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000', LOG_LEVEL: 'info' },
      // A delivery timeout no busy machine reaches by accident: a timed-out attempt would be retried, one attempt more.
      webhookTuning: { ...FAST_WEBHOOK_TUNING, timeoutMs: 60_000 },
      logDestination: new Writable({ write: (chunk: Buffer, _e, done) => (logs.push(chunk.toString()), done()) }),
    });
    // Without listen() Nest keeps service log lines buffered; the daemon flushes them when it starts listening.
    t.app.flushLogs();
  });
  /** Receivers of single tests, closed with the shared one. */
  const receivers: MerchantReceiver[] = [];
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    for (const r of receivers.splice(0)) await r.close();
  });

  /** One subscription.created event: a customer without a card and a plan are enough. */
  async function makeEvent(): Promise<string> {
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    const customer = await t.api().post('/api/v1/customers').send({}).expect(201);
    const sub = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
    const [event] = (await allEvents(t.api, 'subscription.created')).filter((e) => e.data.object.id === sub.body.id);
    return event.id;
  }

  it('creates an endpoint whose secret is shown once and stored only encrypted', async () => {
    const res = await t.api().post('/api/v1/webhook-endpoints').set('Idempotency-Key', 'create-endpoint-1').send({ url: receiver.url, description: 'orders' }).expect(201);
    expect(res.body).toMatchObject({ url: receiver.url, events: ['*'], description: 'orders', enabled: true });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const secret = res.body.secret as string;
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(SECRET.exec(secret)?.[1] ?? '', 'base64').length).toBeGreaterThanOrEqual(24);

    const read = await t.api().get(`/api/v1/webhook-endpoints/${res.body.id}`).expect(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(6));
    // A retry with the same key replays the answer, without the secret (it is never stored in clear).
    const replay = await t.api().post('/api/v1/webhook-endpoints').set('Idempotency-Key', 'create-endpoint-1').send({ url: receiver.url, description: 'orders' }).expect(201);
    expect(replay.body).toMatchObject({ id: res.body.id, secret: null });

    const rows: { row: string }[] = await t.app.get(DataSource).query(`SELECT row_to_json(w)::text AS row FROM webhook_endpoints w UNION ALL SELECT row_to_json(i)::text FROM idempotency_records i`);
    expect(rows.length).toBeGreaterThan(0);
    for (const { row } of rows) expect(row).not.toContain(secret.slice(6));
    await t.api().delete(`/api/v1/webhook-endpoints/${res.body.id}`).expect(200);
  });

  it('lists newest first with a cursor, changes only what PATCH names, and deletes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createEndpoint(t.api, { url: `${receiver.url}?n=${i}`, events: ['charge.failed'] })).id);
    const page1 = await t.api().get('/api/v1/webhook-endpoints?limit=2').expect(200);
    expect(page1.body.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const page2 = await t.api().get(`/api/v1/webhook-endpoints?limit=2&cursor=${page1.body.nextCursor}`).expect(200);
    expect(page2.body).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });

    const patched = await t.api().patch(`/api/v1/webhook-endpoints/${ids[0]}`).send({ events: ['charge.failed', 'payout.failed'], enabled: false, description: 'ops' }).expect(200);
    expect(patched.body).toMatchObject({ id: ids[0], url: `${receiver.url}?n=0`, events: ['charge.failed', 'payout.failed'], enabled: false, description: 'ops' });
    const cleared = await t.api().patch(`/api/v1/webhook-endpoints/${ids[0]}`).send({ description: null }).expect(200);
    expect(cleared.body.description).toBeNull();
    for (const bad of [{ events: ['*', 'charge.failed'] }, { events: [] }, { events: ['charge.refunded'] }, { url: 'ftp://example.com/x' }, { enabled: 'yes' }, { secret: 'whsec_x' }]) {
      const res = await t.api().patch(`/api/v1/webhook-endpoints/${ids[0]}`).send(bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    expect((await t.api().get(`/api/v1/webhook-endpoints/${ids[0]}`)).body).toEqual(cleared.body);

    for (const id of ids) expect((await t.api().delete(`/api/v1/webhook-endpoints/${id}`).expect(200)).body).toEqual({ id, deleted: true });
    await t.api().get(`/api/v1/webhook-endpoints/${ids[0]}`).expect(404);
    await t.api().delete(`/api/v1/webhook-endpoints/${ids[0]}`).expect(404);
    await t.api().patch(`/api/v1/webhook-endpoints/${UNKNOWN}`).send({}).expect(404);
  });

  it('delivers only the subscribed types, signed; redelivers the same body; lists each attempt', async () => {
    const everything = await createEndpoint(t.api, { url: receiver.url });
    receiver.useSecret(everything.secret);
    const payoutsOnly = await createEndpoint(t.api, { url: `${receiver.url}?payouts`, events: ['payout.failed'] });
    const eventId = await makeEvent();

    const first = await until(async () => receiver.deliveries.find((d) => d.id === eventId), 30_000, 'the event delivered');
    const stored = await t.api().get(`/api/v1/events/${eventId}`).expect(200);
    expect(JSON.parse(first.body)).toEqual(stored.body);
    expect(Math.abs(first.timestamp * 1000 - Date.now())).toBeLessThan(60_000);

    const redelivered = await t.api().post(`/api/v1/events/${eventId}/redeliver`).send({ endpointId: everything.id }).expect(202);
    expect(redelivered.body).toMatchObject({ eventId, deliveries: [{ endpointId: everything.id }] });
    await until(async () => (receiver.deliveries.filter((d) => d.id === eventId).length === 2 ? true : undefined), 30_000, 'the event redelivered');
    expect(receiver.idsWithDifferentBodies()).toEqual([]);
    expect(receiver.rejected).toEqual([]);

    // Each attempt is recorded once the receiver has answered it.
    const attempts = await until(
      async () => {
        const listed = await allAttempts(t.api, everything.id, { eventId });
        return listed.length >= 2 ? listed : undefined;
      },
      30_000,
      'both attempts recorded',
    );
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({ eventId, attempt: 1, status: 'succeeded', responseStatus: 204, error: null, nextAttemptAt: null });
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(attempts[0].deliveryId).not.toBe(attempts[1].deliveryId);
    expect(await allAttempts(t.api, payoutsOnly.id)).toEqual([]);

    await t.api().post(`/api/v1/events/${UNKNOWN}/redeliver`).send({}).expect(404);
    await t.api().post(`/api/v1/events/${eventId}/redeliver`).send({ endpointId: UNKNOWN }).expect(404);
    await t.api().patch(`/api/v1/webhook-endpoints/${payoutsOnly.id}`).send({ enabled: false }).expect(200);
    await t.api().post(`/api/v1/events/${eventId}/redeliver`).send({ endpointId: payoutsOnly.id }).expect(409);
    await t.api().get(`/api/v1/webhook-endpoints/${UNKNOWN}/deliveries`).expect(404);
    await t.api().delete(`/api/v1/webhook-endpoints/${payoutsOnly.id}`).expect(200);
    await t.api().delete(`/api/v1/webhook-endpoints/${everything.id}`).expect(200);
  });

  it('signs with the old secret too for a while after a rotation, so receivers can switch over', async () => {
    // A receiver of its own: deliveries of the endpoints of the tests before (deleted, with their own secrets) may
    // still be on the wire on a busy machine, and would count as rejected here.
    const receiver = await MerchantReceiver.start();
    receivers.push(receiver);
    const endpoint = await createEndpoint(t.api, { url: receiver.url });
    const rotated = await t.api().post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).send({}).expect(200);
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    receiver.useSecret(endpoint.secret);
    const before = await makeEvent();
    await until(async () => receiver.deliveries.find((d) => d.id === before), 30_000, 'verified with the old secret');
    receiver.useSecret(rotated.body.secret as string);
    await t.api().post(`/api/v1/events/${before}/redeliver`).send({ endpointId: endpoint.id }).expect(202);
    await until(async () => (receiver.deliveries.filter((d) => d.id === before).length === 2 ? true : undefined), 30_000, 'verified with the new secret');
    expect(receiver.rejected).toEqual([]);
    for (const secret of [endpoint.secret, rotated.body.secret as string]) expect(logs.join('')).not.toContain(secret.slice(6));
    await t.api().delete(`/api/v1/webhook-endpoints/${endpoint.id}`).expect(200);
  });
});
