import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { runMigrations } from '../../src/database/run-migrations';
import { assertExactlyOnce, createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from '../billing/support/billing-fixtures';
import { monthlyPeriodStarts } from '../billing/support/exactly-once';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { sleep, waitFor, waitForStatus } from '../support/wait';

/**
 * A 20 s database outage while two daemons have charges in flight: calls the provider answered while the
 * database was away cannot be recorded, so those charges stay claimed by a live process until its heartbeat
 * sweep hands them back. Soon after the database's return every one is finished, each charged exactly once.
 * The time it took is printed; the bound only tells "seconds" from "never" or "after a backoff of minutes", with
 * room for a busy machine. Runs on a PostgreSQL cluster of its own, stopped and started by the test.
 */
const BEFORE = '2027-01-14T10:00:00.000Z';
const T0 = '2027-01-15T10:00:00.000Z';
const CUSTOMERS = 40;
const OUTAGE_MS = 20_000;
const RECOVERY_LIMIT_MS = 60_000;

describe('charges in flight survive a 20 s database outage', () => {
  let pg: ThrowawayPostgres;
  let sandbox: SandboxClient;
  let setup: Engine;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-outage-'));

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(pg.url, sandbox.url);
  });

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await setup?.close().catch(() => undefined);
    await sandbox?.close();
    pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const db = new Client({ connectionString: pg.url });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  };

  it('finishes every in-flight charge soon after the database comes back, exactly once each', async () => {
    await setClock(setup, BEFORE);
    const plan = await createPlan(setup);
    const customerIds = await createReadyCustomers(setup, sandbox, CUSTOMERS);
    const subscriptionIds = await subscribeAll(setup, customerIds, plan.id, T0);
    // A slow provider, so that calls are in flight when the database goes away.
    await sandbox.control.addFault({ operation: 'createPayment', kind: 'latency', latencyMs: 1_000 });

    const env = (name: string) => schedulingDaemonEnv(pg.url, sandbox.url, join(dataDir, name));
    daemons.push(...(await Promise.all([startDaemon(env('a')), startDaemon(env('b'))])));
    await Promise.all(daemons.map((d) => waitForStatus(`${d.baseUrl}/health/ready`, 200, 180_000)));

    await setClock(setup, T0);
    await waitFor(
      async () => ((await query<{ n: number }>(`SELECT count(*)::int AS n FROM charges WHERE status = 'processing' AND lease_owner IS NOT NULL`))[0].n > 0 ? true : undefined),
      (value) => value !== undefined,
      { timeoutMs: 60_000, everyMs: 20, what: 'charges in flight' },
    );
    const inFlight = (await query<{ id: string }>(`SELECT id FROM charges WHERE status <> 'succeeded'`)).map((r) => r.id);
    pg.stop();
    await sleep(OUTAGE_MS);
    pg.start();
    const back = Date.now();

    // The counts are the last value a timeout reports: open charges, or charges gone (a commit the server lost).
    await waitFor(
      async () =>
        (
          await query<{ open: number; made: number }>(
            `SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS open, count(*)::int AS made FROM charges WHERE id = ANY($1::uuid[])`,
            [inFlight],
          ).catch((error: Error) => [{ open: -1, made: 0, error: error.message }])
        )[0],
      (counts) => counts.open === 0 && counts.made === inFlight.length,
      { timeoutMs: 2 * RECOVERY_LIMIT_MS, everyMs: 200, what: 'the in-flight charges finished' },
    );
    const recoveryMs = Date.now() - back;
    console.log(`database outage: ${inFlight.length} charges open when the database stopped for ${OUTAGE_MS / 1000} s, all finished ${recoveryMs} ms after it came back`);
    expect(recoveryMs).toBeLessThan(RECOVERY_LIMIT_MS);

    await waitFor(
      async () => ((await query<{ n: number }>(`SELECT count(*)::int AS n FROM charges WHERE status = 'succeeded'`))[0].n === CUSTOMERS ? true : undefined),
      (value) => value !== undefined,
      { timeoutMs: 120_000, everyMs: 200, what: 'every charge succeeded' },
    );
    await assertExactlyOnce(setup, sandbox, {
      subscriptions: subscriptionIds.map((id) => ({ id, periodStarts: monthlyPeriodStarts(T0, T0) })),
      amount: plan.amount,
      currency: plan.currency,
    });
    for (const d of daemons) expect(await (await fetch(`${d.baseUrl}/health/ready`)).status).toBe(200);
  }, HEAVY_TEST_TIMEOUT_MS);
});
