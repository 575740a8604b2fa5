import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { WorkerRegistryService } from '../../src/work/worker-registry.service';
import { FAST_WORK_TUNING } from '../support/fast-work-tuning';
import { SandboxClient } from '../support/sandbox-client';
import type { FaultKind, ProviderOperation } from '../support/sandbox-control';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { sleep, waitFor } from '../support/wait';
import {
  assertExactlyOnce,
  createPlan,
  createReadyCustomers,
  drain,
  Engine,
  FAST_TUNING,
  listCharges,
  setClock,
  startEngine,
  subscribeAll,
  TestPlan,
} from './support/billing-fixtures';
import { EngineProcess, startEngineProcess } from './support/engine-process';
import { ExactlyOnceExpectation, FEB, MAR, monthlyPeriodStarts, T0 } from './support/exactly-once';

/**
 * Exactly-once charging: whatever fails (the provider, the network, the engine process) and however many engines run,
 * every due period of every subscription is charged exactly once at the provider, and the daemon ends up knowing it.
 * Each scenario checks the provider's own ledger against the periods due by the final clock time (assertExactlyOnce).
 */

/** Plan, ready customers and one subscription each, starting (and due) at T0. */
async function setUpSubscriptions(
  engine: Engine,
  sandbox: SandboxClient,
  count: number,
): Promise<{ plan: TestPlan; subscriptionIds: string[]; customerIds: string[] }> {
  await setClock(engine, T0);
  const plan = await createPlan(engine);
  const customerIds = await createReadyCustomers(engine, sandbox, count);
  const subscriptionIds = await subscribeAll(engine, customerIds, plan.id, T0);
  return { plan, subscriptionIds, customerIds };
}

function expectation(plan: TestPlan, subscriptionIds: string[], finalClock: string): ExactlyOnceExpectation {
  const periodStarts = monthlyPeriodStarts(T0, finalClock);
  return { subscriptions: subscriptionIds.map((id) => ({ id, periodStarts })), amount: plan.amount, currency: plan.currency };
}

describe('exactly-once charging', () => {
  describe('against the engine, the sandbox and the database', () => {
    // The run's database: the real server in CI, else the embedded one (its socket server keeps each
    // connection's extended-protocol messages together, see src/database/embedded-postgres.ts).
    const database = { url: testDatabaseUrl() };
    let sandbox: SandboxClient;
    let engines: Engine[] = [];
    let workers: EngineProcess[] = [];
    let db: Client | undefined;

    beforeEach(async () => {
      await resetDatabase(database.url);
      sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    });

    afterEach(async () => {
      for (const worker of workers) await worker.kill('SIGKILL');
      workers = [];
      for (const engine of engines) await engine.close();
      engines = [];
      await db?.end();
      db = undefined;
      await sandbox?.close();
    });

    /** A counter of one engine, as GET /metrics shows it (0 when absent). */
    async function metric(target: Engine, name: string): Promise<number> {
      const res = await target.api().get('/metrics');
      const line = (res.text as string).split('\n').find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : 0;
    }

    async function engine(tuning = FAST_TUNING, work = FAST_WORK_TUNING): Promise<Engine> {
      const started = await startEngine(database.url, sandbox.url, tuning, {}, work);
      engines.push(started);
      return started;
    }

    it(
      'charges every period of 20 subscriptions exactly once over 3 months of 503s, 504s after the effect and connection resets',
      async () => {
        const billing = await engine();
        const { plan, subscriptionIds } = await setUpSubscriptions(billing, sandbox, 20);

        const operations: ProviderOperation[] = ['createInvoice', 'createPayment', 'getPayment'];
        const kinds: FaultKind[] = ['unavailable', 'timeout_after_effect', 'reset_after_effect'];
        for (const operation of operations) for (const kind of kinds) await sandbox.control.addFault({ operation, kind, probability: 0.3 });

        for (const now of [T0, FEB, MAR]) {
          await setClock(billing, now);
          for (let pass = 0; pass < 4; pass++) {
            await billing.runPass(8);
            await sleep(50);
          }
        }
        const rules = await sandbox.control.faults();
        await sandbox.control.clearFaults();
        const drained = await drain([billing], subscriptionIds.length * 3);

        await assertExactlyOnce(billing, sandbox, expectation(plan, subscriptionIds, MAR));
        expect(drained.settled).toBe(true);
        // The faults really fired, including those where the provider did the work and the answer was lost.
        const hits = (kind: FaultKind) => (rules ?? []).filter((r) => r.kind === kind).reduce((n, r) => n + r.hits, 0);
        expect(hits('timeout_after_effect') + hits('reset_after_effect')).toBeGreaterThan(0);
        expect(hits('unavailable')).toBeGreaterThan(0);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );

    it(
      'charges every period of 30 subscriptions exactly once while three engines race for the same charges',
      async () => {
        // The third engine stops heartbeating after it registers (a stalled process): the others take its claims over
        // while it still works, and the fence refuses its late writes.
        const racers = [await engine(), await engine(), await engine(FAST_TUNING, { ...FAST_WORK_TUNING, heartbeatMs: 3_600_000 })];
        const { plan, subscriptionIds } = await setUpSubscriptions(racers[0], sandbox, 30);
        // The race starts once the stalled engine counts as silent, so the others may take its claims from the first one.
        const stalled = racers[2].app.get(WorkerRegistryService).workerId;
        await waitFor(
          async () => (await racers[0].app.get(DataSource).query(`SELECT heartbeat_at < now() - make_interval(secs => $2) AS lapsed FROM workers WHERE id = $1`, [stalled, (FAST_WORK_TUNING.lapseMs as number) / 1000]))[0]?.lapsed,
          (lapsed) => lapsed === true,
          { timeoutMs: 60_000, everyMs: 100, what: 'the stalled engine counts as silent' },
        );
        for (const operation of ['createInvoice', 'createPayment', 'getPayment'] as const) {
          await sandbox.control.addFault({ operation, kind: 'latency', latencyMs: 15 });
        }

        // Each period: the engines run passes side by side until every charge due so far has succeeded.
        const claimed = racers.map(() => 0);
        for (const [index, now] of [T0, FEB].entries()) {
          await setClock(racers[0], now);
          const period = await drain(racers, subscriptionIds.length * (index + 1), { timeoutMs: 120_000 });
          period.claimed.forEach((n, i) => (claimed[i] += n));
        }
        await sandbox.control.clearFaults();
        const drained = await drain(racers, subscriptionIds.length * 2, { timeoutMs: 60_000 });

        await assertExactlyOnce(racers[0], sandbox, expectation(plan, subscriptionIds, FEB));
        expect(drained.settled).toBe(true);
        // They really raced: every engine worked on charges, and leases changed hands under a live worker.
        const takeovers = (await Promise.all(racers.map((r) => metric(r, 'work_takeovers_total{queue="charges"}')))).reduce((a, b) => a + b, 0);
        expect(claimed.every((n) => n > 0)).toBe(true);
        expect(takeovers).toBeGreaterThan(0);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );

    it(
      'charges 30 subscriptions exactly once although the engine process is SIGKILLed mid-charge again and again',
      async () => {
        const control = await engine();
        const { plan, subscriptionIds } = await setUpSubscriptions(control, sandbox, 30);
        // Spread the work out, so kills land between the steps of a charge and inside provider calls.
        await sandbox.control.addFault({ operation: 'createInvoice', kind: 'latency', latencyMs: 30 });
        await sandbox.control.addFault({ operation: 'createPayment', kind: 'latency', latencyMs: 30 });

        db = new Client({ connectionString: database.url });
        await db.connect();
        const progress = async () => {
          const { rows } = await (db as Client).query<{ mid: number; succeeded: number; total: number }>(
            `SELECT count(*) FILTER (WHERE provider_invoice_id IS NOT NULL AND status <> 'succeeded')::int AS mid,
                    count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
                    count(*)::int AS total
               FROM charges`,
          );
          return rows[0];
        };
        const spawnWorker = () => {
          const worker = startEngineProcess({ databaseUrl: database.url, sandboxUrl: sandbox.url, concurrency: 4 });
          workers.push(worker);
          return worker;
        };

        const kills: { mid: number; succeeded: number; total: number }[] = [];
        for (let k = 0; k < 4; k++) {
          const worker = spawnWorker();
          await worker.ready;
          // Let this process finish a random few charges, then wait for one that has its invoice but no outcome yet,
          // and kill after a random few milliseconds: inside a provider call, between two writes, or between steps.
          const target = (await progress()).succeeded + Math.floor(Math.random() * 4);
          const seen = await waitFor(progress, (p) => (p.mid > 0 && p.succeeded >= target) || p.succeeded >= 30, {
            timeoutMs: 60_000,
            everyMs: 5,
            failOnTimeout: false,
          });
          await sleep(Math.floor(Math.random() * 40));
          const { signal } = await worker.kill('SIGKILL');
          expect(signal).toBe('SIGKILL');
          kills.push(seen);
        }

        // A last engine process finishes what the killed ones left: lapsed leases, half-made charges.
        const last = spawnWorker();
        await last.ready;
        const state = await waitFor(progress, (s) => s.total === 30 && s.succeeded === 30, {
          timeoutMs: 180_000,
          everyMs: 100,
          stallMs: 60_000,
          progressOf: (s) => s.succeeded,
          failOnTimeout: false,
        });
        await last.kill('SIGTERM');
        await sandbox.control.clearFaults();

        await assertExactlyOnce(control, sandbox, expectation(plan, subscriptionIds, T0));
        expect(state).toEqual({ mid: 0, succeeded: 30, total: 30 });
        // Every kill landed while some charge had its invoice but not yet its outcome.
        expect(kills.filter((k) => k.mid > 0 && k.succeeded < 30)).toHaveLength(4);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );

    /**
     * Deterministic kill points: the state a `kill -9` leaves at one step boundary of a charge, followed by the next pass.
     * 'invoice' is produced by the provider (the invoice is made, every answer is lost); the others rewind a charge that
     * went through to exactly the rows ChargeProcessorService had committed at that boundary, with the dead worker's
     * lease lapsed, while the provider keeps everything it did.
     */
    describe('a charge left behind by an engine that died', () => {
      const boundaries = [
        ['after the provider created the invoice, before the engine recorded it', 'invoice'],
        ['after the provider took the payment, before the engine recorded the payment', 'payment'],
        ['after the engine recorded the payment, before it read the outcome', 'recorded'],
      ] as const;

      it.each(boundaries)(
        '%s is charged exactly once and settled by the next pass',
        async (_label, boundary) => {
          // The lost invoice's charge backs off for an hour: with the usual 20 ms, a pass on a busy machine outlasted
          // the backoff and replayed the invoice before the test could see the charge without it.
          const billing = await engine(FAST_TUNING, boundary === 'invoice' ? { ...FAST_WORK_TUNING, backoffMs: 3_600_000, maxBackoffMs: 3_600_000 } : FAST_WORK_TUNING);
          const { plan, subscriptionIds } = await setUpSubscriptions(billing, sandbox, 1);

          if (boundary === 'invoice') {
            // The first call and every retry of the gateway reach the provider, which makes the invoice, and lose the answer.
            await sandbox.control.addFault({ operation: 'createInvoice', kind: 'reset_after_effect', count: 4 });
            await billing.runPass(1);
            const rules = await sandbox.control.faults();
            expect(rules?.[0]?.hits).toBe(4);
            expect((await listCharges(billing))[0]).toMatchObject({ status: 'pending', invoiceId: null });
            await sandbox.control.clearFaults();
            // The hour has passed: the next pass may take the charge again.
            await billing.app.get(DataSource).query(`UPDATE charges SET not_before = now()`);
          } else {
            expect((await drain([billing], 1)).settled).toBe(true);
            const [done] = await listCharges(billing);
            await billing.app.get(DataSource).transaction(async (em) => {
              await rewindCharge(em, done.id, boundary === 'payment' ? 'create_payment' : 'await_payment');
              if (boundary === 'payment') {
                // The intent was written (attempt pending); the provider's answer never was.
                await em.query(`UPDATE charge_attempts SET status = 'pending', provider_payment_id = NULL WHERE charge_id = $1`, [done.id]);
              } else {
                await em.query(`UPDATE charge_attempts SET status = 'processing' WHERE charge_id = $1`, [done.id]);
              }
              // The success event commits with the charge's success, so it is not there yet either.
              await em.query(`DELETE FROM subscription_events WHERE subscription_id = $1 AND type = 'charge_succeeded'`, [done.subscriptionId]);
            });
            expect((await listCharges(billing))[0]).toMatchObject({ id: done.id, status: 'processing' });
          }

          const drained = await drain([billing], 1, { timeoutMs: 60_000, stallMs: 30_000 });
          await assertExactlyOnce(billing, sandbox, expectation(plan, subscriptionIds, T0));
          expect(drained.settled).toBe(true);
          // Every invoice create, first try or replay, carried the charge's one externalID: no second invoice exists.
          const { payments } = await sandbox.control.ledger();
          const invoiceCreates = await sandbox.control.requests('createInvoice');
          expect(new Set(invoiceCreates.map((r) => (r.body as { externalID?: string }).externalID))).toEqual(new Set([payments[0].invoiceExternalID]));
        },
      );

      it('after the engine recorded a decline on the attempt, before it scheduled the retry, is retried and charged once', async () => {
        const billing = await engine();
        const { plan, subscriptionIds, customerIds } = await setUpSubscriptions(billing, sandbox, 1);
        const customer = await billing.api().get(`/api/v1/customers/${customerIds[0]}`);
        // The first payment is declined (soft: the ladder retries a day later), the next one goes through.
        const scripted = await sandbox.control.send('POST', 'outcomes', {
          customerID: customer.body.providerCustomerId,
          outcomes: ['authorization_failed:insufficient_funds'],
        });
        expect(scripted.status).toBe(204);

        const declined = await waitFor(
          async () => {
            await billing.runPass(1);
            return (await listCharges(billing))[0];
          },
          (charge) => charge?.status === 'retrying',
          { timeoutMs: 60_000, everyMs: 0, failOnTimeout: false },
        );
        expect(declined).toMatchObject({ status: 'retrying', attempts: [{ number: 1, status: 'declined' }] });

        // Killed after the attempt was marked declined and before the decline was applied to the charge and subscription.
        await billing.app.get(DataSource).transaction(async (em) => {
          await rewindCharge(em, declined.id, 'await_payment');
          await em.query(`UPDATE charges SET last_error_code = NULL, dunning_started_at = NULL WHERE id = $1`, [declined.id]);
          await em.query(`UPDATE subscriptions SET status = 'active' WHERE id = $1`, [declined.subscriptionId]);
          await em.query(`DELETE FROM subscription_events WHERE subscription_id = $1 AND type IN ('past_due', 'charge_declined')`, [declined.subscriptionId]);
        });

        // Two days on, the one-day retry is due: the decline must be learned again and the card retried once.
        const later = '2027-01-17T10:00:00.000Z';
        await setClock(billing, later);
        const drained = await drain([billing], 1, { timeoutMs: 60_000, stallMs: 30_000 });
        await assertExactlyOnce(billing, sandbox, expectation(plan, subscriptionIds, later));
        expect(drained.settled).toBe(true);
        expect((await listCharges(billing))[0].attempts).toEqual([
          expect.objectContaining({ number: 1, status: 'declined' }),
          expect.objectContaining({ number: 2, status: 'succeeded' }),
        ]);
      });

      /** The charge row as it was while the dead worker held it at `step` (before any outcome), its lease lapsed. */
      async function rewindCharge(em: EntityManager, chargeId: string, step: 'create_payment' | 'await_payment'): Promise<void> {
        await em.query(
          `UPDATE charges SET status = 'processing', step = $2, next_attempt_at = $3, not_before = NULL, attempt_count = 0,
                  lease_owner = 'killed-engine'
            WHERE id = $1`,
          [chargeId, step, T0],
        );
      }
    });
  });
});
