import { Client } from 'pg';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { waitFor } from '../support/wait';

type Body = Record<string, unknown> & { id: string };

const PLAN = { name: 'Bulk', product: 'Bulk', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] };

/**
 * The claim picks its plan from the planner's statistics on `charges`: with none, it reads and sorts every due
 * charge on each claim (107 ms each at 100,000 due, against 1.5 ms). A pass that makes a thousand charges or more
 * refreshes them itself, not a minute later when autovacuum might.
 */
describe('a pass that makes many charges', () => {
  let sandbox: SandboxHandle;
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ delays: { bindingMs: 5, paymentMs: 0 } });
    t = await startTestApp({ sandbox });
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    sandbox?.close();
  });

  const chargesRowEstimate = async () => (await db.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'charges'`)).rows[0].n;

  it('leaves the planner statistics on the charges it made', async () => {
    const customer = (await t.api().post('/api/v1/customers').send({}).expect(201)).body as Body;
    const { paymentToolToken, paymentSession } = await t.sandboxClient.cardForBinding(CARDS.success);
    await t.api().post(`/api/v1/customers/${customer.id}/bindings`).send({ paymentToolToken, paymentSession }).expect(202);
    await waitFor(async () => (await t.api().post(`/api/v1/customers/${customer.id}/refresh`).expect(200)).body as Body, (c) => c.status === 'ready', {
      timeoutMs: 20_000,
      everyMs: 50,
      what: 'customer ready',
    });
    const plan = (await t.api().post('/api/v1/plans').send(PLAN).expect(201)).body as Body;
    const first = (await t.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id }).expect(201)).body as Body;
    // 1,199 more like it, due at the same moment: a bulk renewal day.
    await db.query(
      `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at)
       SELECT customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at FROM subscriptions, generate_series(1, 1199) WHERE id = $1`,
      [first.id],
    );
    expect(await chargesRowEstimate()).toBeLessThan(1000);

    const run = (await t.api().post('/api/v1/billing/run').send({}).expect(200)).body as Body;

    expect(run).toMatchObject({ created: 1200, succeeded: 1200 });
    expect(await chargesRowEstimate()).toBeGreaterThanOrEqual(1000);
  });
});
