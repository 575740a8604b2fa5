import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { WorkerRegistryService } from '../../src/work/worker-registry.service';
import type { Engine } from '../billing/support/billing-fixtures';
import { EngineProcess, startEngineProcess } from '../billing/support/engine-process';
import { FAST_WORK_TUNING } from '../support/fast-work-tuning';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { sleep, waitFor } from '../support/wait';
import { askRefund, assertRefundsExactlyOnce, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

/**
 * Exactly-once refunds when several processes work them: three replicas racing for the same refunds (one of them
 * stalled, its claims taken over while it still works), and a daemon process SIGKILLed again and again in the middle
 * of refunds, between a provider call and its record. Each refund is made once at the provider and ends as it did there.
 */
describe('exactly-once refunds across replicas and killed processes', () => {
  let sandbox: SandboxClient;
  let engines: Engine[] = [];
  let workers: EngineProcess[] = [];
  let db: Client | undefined;

  beforeEach(async () => {
    await resetDatabase();
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

  /** Three refunds per charge: two parts to the card and the rest to it, each with a reference. */
  async function askThreeEach(engine: Engine, chargeIds: string[]): Promise<void> {
    for (const [i, chargeId] of chargeIds.entries()) {
      for (const [n, body] of [{ amount: 700 }, { amount: 800 }, {}].entries()) {
        const res = await askRefund(engine, chargeId, { ...body, reference: `c${i}-r${n}` });
        expect(res.status).toBe(202);
      }
    }
  }

  it(
    'makes the refunds of 10 charges exactly once while three replicas race for them, one of them stalled',
    async () => {
      engines = [
        await startRefundEngine(testDatabaseUrl(), sandbox.url),
        await startRefundEngine(testDatabaseUrl(), sandbox.url),
        // Stops heartbeating after it registers: the others take its claims over while it still works, and the fence
        // refuses its late writes.
        await startRefundEngine(testDatabaseUrl(), sandbox.url, { work: { heartbeatMs: 3_600_000 } }),
      ];
      const { charges } = await paidCharges(engines[0], sandbox, 10);
      const stalled = engines[2].app.get(WorkerRegistryService).workerId;
      await waitFor(
        async () =>
          (await engines[0].app.get(DataSource).query(`SELECT heartbeat_at < now() - make_interval(secs => $2) AS lapsed FROM workers WHERE id = $1`, [stalled, (FAST_WORK_TUNING.lapseMs as number) / 1000]))[0]
            ?.lapsed,
        (lapsed) => lapsed === true,
        { timeoutMs: 60_000, everyMs: 100, what: 'the stalled replica counts as silent' },
      );
      for (const operation of ['createRefund', 'getRefund', 'getInvoice'] as const) await sandbox.control.addFault({ operation, kind: 'latency', latencyMs: 15 });
      await askThreeEach(engines[0], charges.map((c) => c.id));

      const raced = await settleRefunds(engines, { timeoutMs: 180_000 });
      await sandbox.control.clearFaults();
      expect(raced.settled).toBe(true);
      await assertRefundsExactlyOnce(engines[0], sandbox, 'refunds raced by three replicas');
      expect((await listRefunds(engines[0])).filter((r) => r.status !== 'succeeded')).toEqual([]);
      // They really raced: every replica worked refunds, and leases changed hands under a live process.
      const takeovers = (await Promise.all(engines.map((e) => e.api().get('/metrics')))).reduce(
        (sum, res) => sum + Number(/work_takeovers_total\{queue="refunds"\} (\d+)/.exec(res.text as string)?.[1] ?? 0),
        0,
      );
      expect(raced.steps.every((n) => n > 0)).toBe(true);
      expect(takeovers).toBeGreaterThan(0);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    'makes the refunds of 10 charges exactly once although the process working them is SIGKILLed mid-refund again and again',
    async () => {
      const control = await startRefundEngine(testDatabaseUrl(), sandbox.url);
      engines = [control];
      const { charges } = await paidCharges(control, sandbox, 10);
      // Spread the work out, so kills land inside provider calls and between a call and its record.
      await sandbox.control.addFault({ operation: 'createRefund', kind: 'latency', latencyMs: 30 });
      await sandbox.control.addFault({ operation: 'getRefund', kind: 'latency', latencyMs: 30 });
      await askThreeEach(control, charges.map((c) => c.id));

      db = new Client({ connectionString: testDatabaseUrl() });
      await db.connect();
      const progress = async () =>
        (
          await (db as Client).query<{ mid: number; done: number }>(
            `SELECT count(*) FILTER (WHERE status = 'pending' AND step IN ('create', 'await'))::int AS mid, count(*) FILTER (WHERE status <> 'pending')::int AS done FROM refunds`,
          )
        ).rows[0];
      const spawnWorker = () => {
        const worker = startEngineProcess({ databaseUrl: testDatabaseUrl(), sandboxUrl: sandbox.url, concurrency: 4, worker: 'test/refunds/support/refund-worker.ts' });
        workers.push(worker);
        return worker;
      };

      /** Refunds the provider made whose row does not say so yet: what a kill left between a create and its record. */
      const unrecorded = async () => {
        const made = new Set((await sandbox.control.ledger()).refunds.map((r) => r.externalID));
        const rows = (await (db as Client).query<{ external_id: string }>(`SELECT external_id FROM refunds WHERE provider_refund_id IS NULL`)).rows;
        return rows.filter((r) => made.has(r.external_id)).length;
      };

      const kills: { mid: number; done: number }[] = [];
      let leftUnrecorded = 0;
      for (let k = 0; k < 4; k++) {
        const worker = spawnWorker();
        await worker.ready;
        const target = (await progress()).done + 1 + Math.floor(Math.random() * 3);
        const seen = await waitFor(progress, (p) => (p.mid > 0 && p.done >= target) || p.done >= 30, { timeoutMs: 60_000, everyMs: 5, failOnTimeout: false });
        await sleep(Math.floor(Math.random() * 40));
        expect((await worker.kill('SIGKILL')).signal).toBe('SIGKILL');
        kills.push(seen);
        leftUnrecorded += await unrecorded();
      }
      console.log(`refund kills: ${kills.length}, each with refunds between create and outcome (${kills.map((k) => k.mid).join(', ')}); refunds made at the provider and not yet recorded when killed: ${leftUnrecorded}`);
      // A last process finishes what the killed ones left: lapsed leases, refunds made at the provider and not recorded.
      const last = spawnWorker();
      await last.ready;
      const state = await waitFor(progress, (p) => p.done === 30, { timeoutMs: 180_000, everyMs: 100, stallMs: 60_000, progressOf: (p) => p.done, failOnTimeout: false });
      await last.kill('SIGTERM');
      await sandbox.control.clearFaults();

      expect(state).toEqual({ mid: 0, done: 30 });
      await assertRefundsExactlyOnce(control, sandbox, 'refunds worked by a process SIGKILLed 4 times');
      expect((await listRefunds(control)).filter((r) => r.status !== 'succeeded')).toEqual([]);
      // Every kill landed while some refund was between its create and its outcome.
      expect(kills.filter((k) => k.mid > 0 && k.done < 30)).toHaveLength(4);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
