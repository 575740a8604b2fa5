import { Client } from 'pg';
import { BillingRunService } from '../../src/billing/billing-run.service';
import { ChargeAttemptsRepository } from '../../src/billing/charge-attempts.repository';
import { CHARGE_QUEUE, ChargeQueue } from '../../src/billing/charge-queue';
import { ChargeSettlementService } from '../../src/billing/charge-settlement.service';
import { ChargesRepository } from '../../src/billing/charges.repository';
import { hotStatementTexts } from '../../src/database/hot-statements';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from './support/billing-fixtures';
import { T0 } from './support/exactly-once';

/**
 * Concurrent workers' invoice records, and their settlements of captured payments, go to the database as one
 * statement each (a group commit). Each charge in it is still written only under its own fence: a worker that lost
 * its lease learns so even when its write shares the statement with other workers', and nothing of its write lands.
 */
describe('the hot path written together', () => {
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

  it('records invoices: answers each worker for its own charge and writes only the fence holders’ intents', async () => {
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

    // One statement is in flight at a time: the first record goes alone, the five that wait for it go together.
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

  it('settles captured payments: each charge, its attempt, its audit event and its charge.succeeded, only under its own fence', async () => {
    const queue = engine.app.get<ChargeQueue>(CHARGE_QUEUE);
    const claims = (await queue.claim(10)).sort((x, y) => x.row.id.localeCompare(y.row.id));
    expect(claims).toHaveLength(4);
    // The last charge was taken over by another process after this one claimed it.
    const stale = claims[3];
    await db.query(`UPDATE charges SET fence = fence + 1, lease_owner = 'another-process' WHERE id = $1`, [stale.row.id]);
    const attempts = engine.app.get(ChargeAttemptsRepository);
    const settlement = engine.app.get(ChargeSettlementService);

    // One statement is in flight at a time: the first settles alone, the three that wait for it (one stale) together.
    const outcomes = await Promise.allSettled(claims.map(async (claim) => settlement.succeed(claim, (await attempts.ofCharge(claim.row.id))[0])));

    // The statement of the common success ran (not the transaction of a subscription whose status changes).
    expect(hotStatementTexts().has('charges.settle-succeeded')).toBe(true);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).name))).toEqual(['succeeded', 'succeeded', 'succeeded', 'LeaseLostError']);
    const charges = await db.query<{ id: string; status: string; leased: boolean; attempt: string; updated: string }>(
      `SELECT ch.id, ch.status, ch.lease_owner IS NOT NULL AS leased, at.status AS attempt, to_char(ch.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated
         FROM charges ch JOIN charge_attempts at ON at.charge_id = ch.id ORDER BY ch.id`,
    );
    expect(charges.rows.map(({ status, leased, attempt }) => ({ status, leased, attempt }))).toEqual([
      { status: 'succeeded', leased: false, attempt: 'succeeded' },
      { status: 'succeeded', leased: false, attempt: 'succeeded' },
      { status: 'succeeded', leased: false, attempt: 'succeeded' },
      { status: 'processing', leased: true, attempt: 'pending' },
    ]);
    const audit = await db.query<{ charge: string }>(`SELECT data->>'chargeId' AS charge FROM subscription_events WHERE type = 'charge_succeeded' ORDER BY 1`);
    expect(audit.rows.map((r) => r.charge)).toEqual(claims.slice(0, 3).map((c) => c.row.id));
    const events = await db.query<{ charge: string; status: string; updated: string }>(
      `SELECT data->'object'->>'id' AS charge, data->'object'->>'status' AS status, data->'object'->>'updatedAt' AS updated
         FROM events WHERE type = 'charge.succeeded' ORDER BY 1`,
    );
    expect(events.rows).toEqual(charges.rows.slice(0, 3).map((c) => ({ charge: c.id, status: 'succeeded', updated: c.updated })));
  });
});
