import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { runMigrations } from '../../src/database/run-migrations';
import { assertExactlyOnce, createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll, FAST_TUNING } from '../billing/support/billing-fixtures';
import { monthlyPeriodStarts } from '../billing/support/exactly-once';
import { SandboxClient } from '../support/sandbox-client';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { sleep, waitFor } from '../support/wait';

const BEFORE = '2027-01-14T10:00:00.000Z';
const T0 = '2027-01-15T10:00:00.000Z';
const CUSTOMERS = 20;
const FAULT_MS = 4_000;
const RECOVERY_LIMIT_MS = 60_000;

/**
 * Lost acknowledgements: PostgreSQL is told to wait for a synchronous standby that does not exist, so every commit is
 * durable and then waits; terminating the waiting backends loses each answer while its commit stands. A claim whose
 * answer is lost leaves rows leased to a live, heartbeating process that does not know it holds them; nobody else may
 * take them while it lives. The process must find and free them by itself, and every charge must end up paid exactly
 * once. Runs on a PostgreSQL cluster of its own (the fault is a server setting).
 */
describe('a claim whose answer is lost', () => {
  let pg: ThrowawayPostgres;
  let sandbox: SandboxClient;
  let setup: Engine;
  let live: Engine;

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    // The cluster commits synchronously, so the daemons' sessions wait for the (absent) standby once it is named.
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(pg.url, sandbox.url);
    live = await startEngine(pg.url, sandbox.url, FAST_TUNING, { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '300' });
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await query(`ALTER SYSTEM RESET synchronous_standby_names`).catch(() => undefined);
    await query(`SELECT pg_reload_conf()`).catch(() => undefined);
    await live?.close().catch(() => undefined);
    await setup?.close().catch(() => undefined);
    await sandbox?.close();
    pg?.destroy();
  });

  /** One statement on a session of its own that never waits for the standby. */
  async function query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const db = new Client({ connectionString: pg.url });
    await db.connect();
    try {
      await db.query(`SET synchronous_commit = local`);
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }

  it('is found and freed by the live process within seconds, and every charge is paid exactly once', async () => {
    await setClock(setup, BEFORE);
    const plan = await createPlan(setup);
    const customerIds = await createReadyCustomers(setup, sandbox, CUSTOMERS);
    const subscriptionIds = await subscribeAll(setup, customerIds, plan.id, T0);
    // A slow provider keeps the live process claiming while commits wait.
    await sandbox.control.addFault({ operation: 'createPayment', kind: 'latency', latencyMs: 200 });

    // Every commit now waits for the standby; the billing period begins, and each waiting backend is terminated.
    await query(`ALTER SYSTEM SET synchronous_standby_names = 'nobody'`);
    await query(`SELECT pg_reload_conf()`);
    await query(`UPDATE test_clock SET now = $1`, [T0]);
    let terminated = 0;
    for (const until = Date.now() + FAULT_MS; Date.now() < until; ) {
      const rows = await query<{ pid: number }>(
        // The waiting backends are chosen first (OFFSET 0 keeps the planner from evaluating the termination on others).
        `SELECT pid FROM (SELECT pid FROM pg_stat_activity WHERE datname = 'billing' AND wait_event = 'SyncRep' OFFSET 0) w WHERE pg_terminate_backend(pid)`,
      );
      terminated += rows.length;
      await sleep(50);
    }
    await query(`ALTER SYSTEM RESET synchronous_standby_names`);
    await query(`SELECT pg_reload_conf()`);
    await sandbox.control.clearFaults();
    const healed = Date.now();

    await waitFor(
      async () => (await query<{ open: number; made: number }>(`SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS open, count(*)::int AS made FROM charges`))[0],
      (counts) => counts.made === CUSTOMERS && counts.open === 0,
      { timeoutMs: RECOVERY_LIMIT_MS, everyMs: 200, what: 'every charge paid after the lost answers' },
    );
    const recoveredMs = Date.now() - healed;
    const metrics = await (await live.api().get('/metrics')).text;
    const recovered = [...metrics.matchAll(/^work_leases_recovered_total\{queue="([^"]+)"\} (\d+)/gm)].map(([, queue, n]) => `${queue} ${n}`);
    console.log(`lost answers: ${terminated} waiting commits terminated over ${FAULT_MS / 1000} s; every charge paid ${recoveredMs} ms after the fault ended; leases recovered: ${recovered.join(', ') || 'none'}`);

    expect(await query(`SELECT id FROM charges WHERE lease_owner IS NOT NULL`)).toEqual([]);
    await assertExactlyOnce(setup, sandbox, {
      subscriptions: subscriptionIds.map((id) => ({ id, periodStarts: monthlyPeriodStarts(T0, T0) })),
      amount: plan.amount,
      currency: plan.currency,
    });
  }, HEAVY_TEST_TIMEOUT_MS);
});
