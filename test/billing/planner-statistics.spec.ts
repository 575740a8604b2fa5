import { Client } from 'pg';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from './support/billing-fixtures';
import { T0 } from './support/exactly-once';

/**
 * The claim picks its plan from the planner's statistics on `charges`: with none, it reads and sorts every due
 * charge on each claim (107 ms each at 100,000 due, against 1.5 ms). A pass that makes a thousand charges or more
 * refreshes them itself, not a minute later when autovacuum might.
 */
describe('a pass that makes many charges', () => {
  let sandboxHandle: SandboxHandle;
  let sandbox: SandboxClient;
  let engine: Engine;
  let db: Client;

  beforeAll(async () => {
    await resetDatabase();
    sandboxHandle = await startTestSandbox({ delays: { bindingMs: 5, paymentMs: 0 } });
    sandbox = new SandboxClient(sandboxHandle.url);
    engine = await startEngine(testDatabaseUrl(), sandboxHandle.url);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await engine?.close();
    await sandbox?.close();
    await sandboxHandle?.close();
  });

  const chargesRowEstimate = async () => (await db.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'charges'`)).rows[0].n;

  it('leaves the planner statistics on the charges it made', async () => {
    await setClock(engine, T0);
    const plan = await createPlan(engine);
    const [customerId] = await createReadyCustomers(engine, sandbox, 1);
    const [first] = await subscribeAll(engine, [customerId], plan.id, T0);
    // 1,199 more like it, due at the same moment: a bulk renewal day.
    await db.query(
      `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at)
       SELECT customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at FROM subscriptions, generate_series(1, 1199) WHERE id = $1`,
      [first],
    );
    expect(await chargesRowEstimate()).toBeLessThan(1000);

    const run = await engine.runPass(16);

    expect(run).toMatchObject({ created: 1200, succeeded: 1200 });
    expect(await chargesRowEstimate()).toBeGreaterThanOrEqual(1000);
  });
});
