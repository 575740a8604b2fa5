import { Writable } from 'node:stream';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { MerchantReceiver } from './support/merchant-receiver';
import { allAttempts, allEvents, createEndpoint, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A receiver that is down for a while, another that never comes back, and one that answers slowly: the retry
 * schedule is shortened to fractions of a second (WebhookTuning), the behaviour is the production one.
 */
describe('Webhook deliveries when receivers fail', () => {
  let t: TestApp;
  const receivers: MerchantReceiver[] = [];
  const logs: string[] = [];

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({
      env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000', LOG_LEVEL: 'info' },
      webhookTuning: { ...FAST_WEBHOOK_TUNING, giveUpAfterMs: 4_000, timeoutMs: 500, concurrency: 8, perEndpointInFlight: 2, warnAfterFailures: 3 },
      logDestination: new Writable({ write: (chunk: Buffer, _e, done) => (logs.push(chunk.toString()), done()) }),
    });
    // Without listen() Nest keeps service log lines buffered; the daemon flushes them when it starts listening.
    t.app.flushLogs();
  });
  afterAll(async () => {
    await t?.close();
    for (const r of receivers) await r.close();
  });

  async function receiverWithEndpoint(): Promise<{ receiver: MerchantReceiver; endpointId: string; secret: string }> {
    const receiver = await MerchantReceiver.start();
    receivers.push(receiver);
    const { id, secret } = await createEndpoint(t.api, { url: receiver.url });
    receiver.useSecret(secret);
    return { receiver, endpointId: id, secret };
  }

  /** `count` subscription.created events (customers without cards: no provider payments needed). */
  async function makeEvents(count: number): Promise<string[]> {
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const customer = await t.api().post('/api/v1/customers').send({}).expect(201);
      const sub = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
      ids.push((await allEvents(t.api, 'subscription.created')).find((e) => e.data.object.id === sub.body.id)?.id as string);
    }
    return ids;
  }

  it('keeps retrying while a receiver is down, delivers everything once it is back, and reports the failing endpoint', async () => {
    const back = await receiverWithEndpoint();
    const never = await receiverWithEndpoint();
    back.receiver.mode = { kind: 'down' };
    never.receiver.mode = { kind: 'down', status: 500 };
    const eventIds = await makeEvents(4);

    // Down: each delivery is retried on the schedule, and every failed attempt is listed.
    await until(async () => ((await allAttempts(t.api, back.endpointId, { status: 'failed' })).length >= 8 ? true : undefined), 15_000, 'failed attempts listed');
    const failed = await allAttempts(t.api, back.endpointId, { eventId: eventIds[0] });
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[0]).toMatchObject({ eventId: eventIds[0], status: 'failed', responseStatus: 503, error: 'http_503' });
    // What the receiver answered is never shown: a webhook must not read another service's replies.
    expect(JSON.stringify(failed)).not.toContain('maintenance');
    expect(failed[0].nextAttemptAt).not.toBeNull();
    expect(failed.map((a) => a.attempt)).toEqual([...failed.map((a) => a.attempt)].sort((x, y) => y - x));
    expect(back.receiver.deliveries).toHaveLength(0);

    // The failing endpoints show on /metrics and in one warning line each (with no secret in it).
    const metrics = (await t.api().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(new RegExp(`webhook_endpoint_consecutive_failures\\{endpoint="${back.endpointId}"\\} ([3-9]|\\d\\d+)`));
    expect(metrics).toMatch(/webhook_deliveries_total\{result="retrying"\} [1-9]/);
    const warning = logs.find((l) => l.includes('keeps failing') && l.includes(back.endpointId));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning as string)).toMatchObject({ endpointId: back.endpointId, host: new URL(back.receiver.url).host });
    for (const secret of [back.secret, never.secret]) expect(logs.join('')).not.toContain(secret.slice(6));

    // Back up: every event arrives, once per delivery, verified.
    back.receiver.mode = { kind: 'ok' };
    await until(async () => (eventIds.every((id) => back.receiver.deliveries.some((d) => d.id === id)) ? true : undefined), 10_000, 'all delivered after the outage');
    const afterOutage = await allAttempts(t.api, back.endpointId, { eventId: eventIds[0] });
    expect(afterOutage[0]).toMatchObject({ status: 'succeeded', responseStatus: 204, nextAttemptAt: null });
    expect(afterOutage.slice(1).every((a) => a.status === 'failed')).toBe(true);
    expect((await t.api().get(`/api/v1/webhook-endpoints/${back.endpointId}`)).body.consecutiveFailures).toBe(0);

    // Redelivery on request: the same body again.
    await t.api().post(`/api/v1/events/${eventIds[1]}/redeliver`).send({ endpointId: back.endpointId }).expect(202);
    await until(async () => (back.receiver.deliveries.filter((d) => d.id === eventIds[1]).length === 2 ? true : undefined), 10_000, 'redelivered');
    expect(back.receiver.idsWithDifferentBodies()).toEqual([]);
    expect(back.receiver.rejected).toEqual([]);

    // The receiver that never comes back: after the retry window the delivery is failed for good.
    await until(
      async () => {
        const attempts = await allAttempts(t.api, never.endpointId, { eventId: eventIds[0] });
        return attempts[0] && attempts[0].nextAttemptAt === null ? attempts : undefined;
      },
      15_000,
      'given up after the window',
    );
    await sleep(1_500);
    const finalAttempts = await allAttempts(t.api, never.endpointId);
    const last = new Map<string, (typeof finalAttempts)[number]>();
    for (const a of finalAttempts) if (!last.has(a.eventId)) last.set(a.eventId, a);
    expect([...last.values()].map((a) => ({ status: a.status, next: a.nextAttemptAt }))).toEqual(eventIds.map(() => ({ status: 'failed', next: null })));
    expect(logs.some((l) => l.includes('failed for good'))).toBe(true);
    expect(never.receiver.refusedOnPurpose).toBe(finalAttempts.length);
  }, 60_000);

  it('never lets a slow endpoint hold back another', async () => {
    const slow = await receiverWithEndpoint();
    const fast = await receiverWithEndpoint();
    // Slower than the timeout: each attempt to it takes the whole 500 ms and fails.
    slow.receiver.mode = { kind: 'slow', delayMs: 2_000 };
    const started = Date.now();
    const eventIds = await makeEvents(12);
    await until(async () => (eventIds.every((id) => fast.receiver.deliveries.some((d) => d.id === id)) ? true : undefined), 10_000, 'the fast endpoint served');
    const fastMs = Date.now() - started;
    // Twelve events to the slow one would take 12 × 500 ms / 2 in flight = 3 s; the fast one is done well within.
    console.log(`slow endpoint: the fast endpoint had all 12 events ${fastMs} ms after the first was recorded`);
    expect(fastMs).toBeLessThan(3_000);
    const metrics = (await t.api().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/webhook_deliveries_total\{result="deferred"\} [1-9]/);
    const slowAttempts = await allAttempts(t.api, slow.endpointId);
    expect(slowAttempts.some((a) => a.error === 'timeout')).toBe(true);
  }, 60_000);
});
