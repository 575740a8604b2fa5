import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import type { WebhookTuning } from '../../src/webhooks/webhook-tuning';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { MerchantReceiver } from './support/merchant-receiver';
import { allAttempts, allEvents, AttemptView, createEndpoint, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

/** The newest attempt of each event (attempts are listed newest first). */
function latestPerEvent(attempts: AttemptView[]): Map<string, AttemptView> {
  const latest = new Map<string, AttemptView>();
  for (const a of attempts) if (!latest.has(a.eventId)) latest.set(a.eventId, a);
  return latest;
}

/** The deliveries' timings of this file: retries within a second, a timeout no busy machine reaches by accident. */
const TUNING: Partial<WebhookTuning> = { ...FAST_WEBHOOK_TUNING, timeoutMs: 3_000, concurrency: 8, perEndpointInFlight: 2, warnAfterFailures: 3 };

/**
 * A receiver that is down for a while, another that never comes back, and one that answers slowly: the retry
 * schedule is shortened to fractions of a second (WebhookTuning), the behaviour is the production one. Each part
 * has the retry window it needs: a long one while a receiver must outlast an outage, however slow the machine makes
 * the test, and a short one to see deliveries given up.
 */
describe('Webhook deliveries when receivers fail', () => {
  let t: TestApp;
  const receivers: MerchantReceiver[] = [];
  const logs: string[] = [];

  /** An app whose deliveries give up `giveUpAfterMs` after they were queued; its log lines go to `logs`. */
  function useApp(giveUpAfterMs: number): void {
    beforeAll(async () => {
      await resetDatabase();
      logs.length = 0;
      t = await startTestApp({
        env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000', LOG_LEVEL: 'info' },
        webhookTuning: { ...TUNING, giveUpAfterMs },
        logDestination: new Writable({ write: (chunk: Buffer, _e, done) => (logs.push(chunk.toString()), done()) }),
      });
      // Without listen() Nest keeps service log lines buffered; the daemon flushes them when it starts listening.
      t.app.flushLogs();
    });
    afterAll(async () => {
      await t?.close();
      for (const r of receivers.splice(0)) await r.close();
    });
  }

  async function receiverWithEndpoint(): Promise<{ receiver: MerchantReceiver; endpointId: string; secret: string }> {
    const receiver = await MerchantReceiver.start();
    receivers.push(receiver);
    const { id, secret } = await createEndpoint(t.api, { url: receiver.url });
    receiver.useSecret(secret);
    return { receiver, endpointId: id, secret };
  }

  async function deferredDeliveries(): Promise<number> {
    const metrics = (await t.api().get('/metrics').expect(200)).text;
    return Number(/webhook_deliveries_total\{result="deferred"\} (\d+)/.exec(metrics)?.[1] ?? 0);
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

  describe('within the retry window', () => {
    useApp(FAST_WEBHOOK_TUNING.giveUpAfterMs);

    it('keeps retrying while a receiver is down, delivers everything once it is back, and reports the failing endpoint', async () => {
      const back = await receiverWithEndpoint();
      back.receiver.mode = { kind: 'down' };
      const eventIds = await makeEvents(4);

      // Down: each delivery is retried on the schedule, and every failed attempt is listed.
      await until(async () => ((await allAttempts(t.api, back.endpointId, { status: 'failed' })).length >= 8 ? true : undefined), 60_000, 'failed attempts listed');
      const failed = await allAttempts(t.api, back.endpointId, { eventId: eventIds[0] });
      expect(failed.length).toBeGreaterThanOrEqual(2);
      expect(failed[0]).toMatchObject({ eventId: eventIds[0], status: 'failed', responseStatus: 503, error: 'http_503' });
      // What the receiver answered is never shown: a webhook must not read another service's replies.
      expect(JSON.stringify(failed)).not.toContain('maintenance');
      expect(failed[0].nextAttemptAt).not.toBeNull();
      expect(failed.map((a) => a.attempt)).toEqual([...failed.map((a) => a.attempt)].sort((x, y) => y - x));
      expect(back.receiver.deliveries).toHaveLength(0);

      // The failing endpoint shows on /metrics and in a warning line (with no secret in it).
      const metrics = (await t.api().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(new RegExp(`webhook_endpoint_consecutive_failures\\{endpoint="${back.endpointId}"\\} ([3-9]|\\d\\d+)`));
      expect(metrics).toMatch(/webhook_deliveries_total\{result="retrying"\} [1-9]/);
      const warning = logs.find((l) => l.includes('keeps failing') && l.includes(back.endpointId));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning as string)).toMatchObject({ endpointId: back.endpointId, host: new URL(back.receiver.url).host });
      expect(logs.join('')).not.toContain(back.secret.slice(6));

      // Back up: every event arrives, once per delivery, verified; each delivery's newest attempt (recorded once the
      // receiver has answered) is the success.
      back.receiver.mode = { kind: 'ok' };
      await until(async () => (eventIds.every((id) => back.receiver.deliveries.some((d) => d.id === id)) ? true : undefined), 30_000, 'all delivered after the outage');
      const recovered = await until(
        async () => {
          const latest = latestPerEvent(await allAttempts(t.api, back.endpointId));
          return eventIds.every((id) => latest.get(id)?.status === 'succeeded') ? latest : undefined;
        },
        30_000,
        'every delivery recorded as succeeded',
      );
      expect(recovered.get(eventIds[0])).toMatchObject({ status: 'succeeded', responseStatus: 204, nextAttemptAt: null });
      const afterOutage = await allAttempts(t.api, back.endpointId, { eventId: eventIds[0] });
      expect(afterOutage[0]).toMatchObject({ status: 'succeeded', responseStatus: 204, nextAttemptAt: null });
      expect(afterOutage.slice(1).every((a) => a.status === 'failed')).toBe(true);
      expect((await t.api().get(`/api/v1/webhook-endpoints/${back.endpointId}`)).body.consecutiveFailures).toBe(0);

      // Redelivery on request: the same body again.
      await t.api().post(`/api/v1/events/${eventIds[1]}/redeliver`).send({ endpointId: back.endpointId }).expect(202);
      await until(async () => (back.receiver.deliveries.filter((d) => d.id === eventIds[1]).length === 2 ? true : undefined), 30_000, 'redelivered');
      expect(back.receiver.idsWithDifferentBodies()).toEqual([]);
      expect(back.receiver.rejected).toEqual([]);
    });

    it('never lets a slow endpoint hold back another', async () => {
      const slow = await receiverWithEndpoint();
      const fast = await receiverWithEndpoint();
      // Far slower than the timeout: each attempt to it takes the whole 3 s and fails.
      slow.receiver.mode = { kind: 'slow', delayMs: 20_000 };
      const deferredBefore = await deferredDeliveries();
      const started = Date.now();
      const eventIds = await makeEvents(8);
      // Only a hang guard: on the embedded database at load 18 making the events alone takes a minute, and the fast
      // endpoint's deliveries trail them by as much as the machine lags. That the slow endpoint held back nothing is
      // shown by what it held (below), not by a time.
      await until(async () => (eventIds.every((id) => fast.receiver.deliveries.some((d) => d.id === id)) ? true : undefined), 180_000, 'the fast endpoint served');
      console.log(`slow endpoint: the fast endpoint had all 8 events ${Date.now() - started} ms after the first was recorded`);
      // The slow endpoint never held more than its share of the 8 workers, whatever the machine's speed: the others
      // stayed free for the fast one. Its backlog was paced (deferred), and each attempt to it ran into the timeout.
      expect(slow.receiver.maxOpenRequests).toBeGreaterThanOrEqual(1);
      expect(slow.receiver.maxOpenRequests).toBeLessThanOrEqual(2);
      expect(await deferredDeliveries()).toBeGreaterThan(deferredBefore);
      const slowAttempts = await until(
        async () => {
          const attempts = await allAttempts(t.api, slow.endpointId);
          return attempts.some((a) => a.error === 'timeout') ? attempts : undefined;
        },
        60_000,
        'an attempt to the slow endpoint timed out',
      );
      expect(slowAttempts.every((a) => a.status === 'failed')).toBe(true);
    });
  });

  describe('past the retry window', () => {
    useApp(3_000);

    it('fails a delivery for good once its window is over, and says so', async () => {
      const never = await receiverWithEndpoint();
      never.receiver.mode = { kind: 'down', status: 500 };
      const eventIds = await makeEvents(4);

      // After its window every delivery to a receiver that never comes back is failed for good. The events were
      // made one after another, so their windows end one after another: wait for the last one, not for a fixed time.
      const finalAttempts = await until(
        async () => {
          const attempts = await allAttempts(t.api, never.endpointId);
          const latest = latestPerEvent(attempts);
          return eventIds.every((id) => latest.has(id) && latest.get(id)?.nextAttemptAt === null) ? attempts : undefined;
        },
        60_000,
        'every delivery to the dead receiver given up after the window',
      );
      const last = latestPerEvent(finalAttempts);
      expect(eventIds.map((id) => ({ status: last.get(id)?.status, next: last.get(id)?.nextAttemptAt }))).toEqual(eventIds.map(() => ({ status: 'failed', next: null })));
      // The deliveries themselves are failed with nothing left to do: no retry time (the queue's due column) remains.
      const deliveries = await t.app
        .get(DataSource)
        .query(`SELECT status, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at`, [never.endpointId]);
      expect(deliveries).toEqual(eventIds.map(() => ({ status: 'failed', next_attempt_at: null })));
      // Only the last attempt of each delivery is final: every one before it named its next attempt.
      for (const id of eventIds) expect(finalAttempts.filter((a) => a.eventId === id && a.id !== last.get(id)?.id).every((a) => a.nextAttemptAt !== null)).toBe(true);
      const gaveUp = logs.filter((l) => l.includes('failed for good') && l.includes(never.endpointId));
      expect(gaveUp.length).toBeGreaterThanOrEqual(1);
      expect(logs.join('')).not.toContain(never.secret.slice(6));
      expect(never.receiver.refusedOnPurpose).toBe(finalAttempts.length);
    });
  });
});
