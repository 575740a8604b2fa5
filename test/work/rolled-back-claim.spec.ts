import { Client } from 'pg';
import { BillingRunService } from '../../src/billing/billing-run.service';
import { CHARGE_QUEUE, ChargeQueue } from '../../src/billing/charge-queue';
import { ChargesRepository } from '../../src/billing/charges.repository';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from '../billing/support/billing-fixtures';
import { T0 } from '../billing/support/exactly-once';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';

/**
 * A database that comes back older than its clients (an asynchronous standby promoted after a failover, or commits
 * acknowledged before they were written) has lost the claims of its last moments, while the process that made them
 * still works the rows. Another process then claims the same rows: its fence must not be the one the first process
 * holds, or both would write the same charge.
 */
describe('a claim the database lost', () => {
  let sandboxHandle: SandboxHandle;
  let first: Engine;
  let second: Engine;
  let db: Client;

  beforeAll(async () => {
    await resetDatabase();
    sandboxHandle = await startTestSandbox({ delays: { bindingMs: 5, paymentMs: 0 } });
    first = await startEngine(testDatabaseUrl(), sandboxHandle.url);
    second = await startEngine(testDatabaseUrl(), sandboxHandle.url);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await second?.close();
    await first?.close();
    await sandboxHandle?.close();
  });

  it('is claimed again under a new fence, and only the new holder can write the charge', async () => {
    await setClock(first, T0);
    const plan = await createPlan(first);
    const customers = await createReadyCustomers(first, new SandboxClient(sandboxHandle.url), 2);
    await subscribeAll(first, customers, plan.id, T0);
    expect(await first.app.get(BillingRunService).materializeDue()).toBe(2);
    const before = await db.query<{ id: string; fence: string }>(`SELECT id, fence FROM charges`);

    const lost = await first.app.get<ChargeQueue>(CHARGE_QUEUE).claim(10, { dueAt: new Date(T0) });
    expect(lost).toHaveLength(2);
    // The failover: the rows are as they were before the claim, which the first process still works.
    for (const row of before.rows) await db.query(`UPDATE charges SET lease_owner = NULL, fence = $2 WHERE id = $1`, [row.id, row.fence]);
    const taken = await second.app.get<ChargeQueue>(CHARGE_QUEUE).claim(10, { dueAt: new Date(T0) });
    expect(taken.map((c) => c.row.id).sort()).toEqual(lost.map((c) => c.row.id).sort());

    const fenceOf = (claims: typeof lost, id: string) => claims.find((c) => c.row.id === id)!.fence;
    for (const { row } of lost) expect(fenceOf(taken, row.id)).not.toBe(fenceOf(lost, row.id));
    const at = new Date(T0);
    const record = (engine: Engine, claims: typeof lost, id: string, tag: string) =>
      engine.app.get(ChargesRepository).recordInvoice(id, fenceOf(claims, id), `inv-${tag}`, { externalId: `pay-${tag}`, attemptedAt: at });
    const [a, b] = lost.map((c) => c.row.id);
    expect(await record(first, lost, a, 'stale-a')).toBeUndefined();
    expect(await record(first, lost, b, 'stale-b')).toBeUndefined();
    expect(typeof (await record(second, taken, a, 'a'))).toBe('string');
    expect(typeof (await record(second, taken, b, 'b'))).toBe('string');
    const written = await db.query<{ invoice: string }>(`SELECT provider_invoice_id AS invoice FROM charges ORDER BY provider_invoice_id`);
    expect(written.rows.map((r) => r.invoice)).toEqual(['inv-a', 'inv-b']);
  });
});
