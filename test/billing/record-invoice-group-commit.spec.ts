import { Client } from 'pg';
import { BillingRunService } from '../../src/billing/billing-run.service';
import { ChargesRepository } from '../../src/billing/charges.repository';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from './support/billing-fixtures';
import { T0 } from './support/exactly-once';

/**
 * Concurrent workers' invoice records go to the database as one statement (a group commit). Each charge in it is
 * still written only under its own fence: a worker that lost its lease learns so even when its record shares the
 * statement with the new holder's, and the payment intent written is the holder's alone.
 */
describe('invoice records written together', () => {
  let sandboxHandle: SandboxHandle;
  let engine: Engine;
  let db: Client;

  beforeAll(async () => {
    await resetDatabase();
    sandboxHandle = await startTestSandbox({ delays: { bindingMs: 5, paymentMs: 0 } });
    engine = await startEngine(testDatabaseUrl(), sandboxHandle.url);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await engine?.close();
    await sandboxHandle?.close();
  });

  it('answers each worker for its own charge and writes only the fence holders’ intents', async () => {
    await setClock(engine, T0);
    const plan = await createPlan(engine);
    const customers = await createReadyCustomers(engine, new SandboxClient(sandboxHandle.url), 4);
    await subscribeAll(engine, customers, plan.id, T0);
    expect(await engine.app.get(BillingRunService).materializeDue()).toBe(4);
    // Leases moved on once for every charge: the holder's fence is 1, a worker still holding fence 0 lost it.
    const { rows } = await db.query<{ id: string }>(`UPDATE charges SET fence = 1 RETURNING id`);
    const [a, b, c, d] = rows.map((r) => r.id).sort();
    const at = new Date(T0);
    const record = (chargeId: string, fence: number, tag: string) =>
      engine.app.get(ChargesRepository).recordInvoice(chargeId, fence, `inv-${tag}`, { externalId: `pay-${tag}`, attemptedAt: at });

    // Two statements may be in flight: the first two records go alone, the next four wait and go together.
    const answers = await Promise.all([
      record(a, 1, 'a'),
      record(b, 1, 'b'),
      record(c, 0, 'c-stale'),
      record(c, 1, 'c'),
      record(d, 1, 'd'),
      record(a, 0, 'a-stale'),
    ]);

    expect(answers.map((answer) => (typeof answer === 'string' ? 'attempt' : answer))).toEqual(['attempt', 'attempt', undefined, 'attempt', 'attempt', undefined]);
    const written = await db.query<{ charge: string; invoice: string; intents: string[] }>(
      `SELECT ch.id AS charge, ch.provider_invoice_id AS invoice, array_agg(at.external_id ORDER BY at.number) AS intents
         FROM charges ch JOIN charge_attempts at ON at.charge_id = ch.id GROUP BY ch.id ORDER BY ch.id`,
    );
    expect(written.rows).toEqual([
      { charge: a, invoice: 'inv-a', intents: ['pay-a'] },
      { charge: b, invoice: 'inv-b', intents: ['pay-b'] },
      { charge: c, invoice: 'inv-c', intents: ['pay-c'] },
      { charge: d, invoice: 'inv-d', intents: ['pay-d'] },
    ]);
    const ids = await db.query<{ id: string }>(`SELECT id FROM charge_attempts ORDER BY charge_id`);
    expect(answers.filter((answer) => typeof answer === 'string').sort()).toEqual(ids.rows.map((r) => r.id).sort());
  });
});
