import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { runMigrations } from '../../src/database/run-migrations';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { RefundResponse } from '../../src/refunds/refund-response';
import type { Engine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { waitFor } from '../support/wait';
import { askRefund, assertRefundsExactlyOnce, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

const CHARGES = 6;

/**
 * The restore drill for refunds: the database comes back from a copy taken before some refunds were made (last night's
 * backup, an asynchronous standby promoted), and the merchant asks for them again. The provider, which kept every
 * refund, must make none of them twice: each asked again meets its own refund there (its externalID derives from the
 * charge and its reference, or its number among the charge's card refunds) and the daemon adopts it, so none is lost.
 */
describe('restore drill: a database restored to before a refund refunds nothing twice and loses none', () => {
  let pg: ThrowawayPostgres;
  let sandbox: SandboxClient;
  const engines: Engine[] = [];

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
  }, 120_000);

  // Each test checks the provider's whole ledger: it starts empty.
  beforeEach(() => sandbox.control.reset());

  afterAll(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    await sandbox?.close();
    pg?.destroy();
  });

  /** A database of its own for a test, made and migrated on the cluster. */
  async function runMigrationsOn(database: string): Promise<void> {
    const admin = new Client({ connectionString: pg.databaseUrl('postgres') });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
    await runMigrations(pg.databaseUrl(database));
  }

  async function engineOn(database: string): Promise<Engine> {
    const engine = await startRefundEngine(pg.databaseUrl(database), sandbox.url);
    engines.push(engine);
    return engine;
  }

  /** What was asked after the backup: a reference on even charges, none on odd ones. */
  const afterBackup = (i: number) => ({ amount: 700 + i, reason: 'requested_by_customer' as const, ...(i % 2 === 0 ? { reference: `after-backup-${i}` } : {}) });

  it(
    'adopts the provider’s refunds asked again after the restore, by reference in any order and without one in the same order',
    async () => {
      const a = await engineOn('billing');
      const { charges } = await paidCharges(a, sandbox, CHARGES);
      // Before the backup: a first card refund of every charge.
      for (const charge of charges) expect((await askRefund(a, charge.id, { amount: 500 })).status).toBe(202);
      expect((await settleRefunds([a])).settled).toBe(true);
      const nightly = pg.dump('billing', 'nightly');

      // After it: a second card refund of every charge, made at the provider; then the database is lost.
      for (const [i, charge] of charges.entries()) expect((await askRefund(a, charge.id, afterBackup(i))).status).toBe(202);
      expect((await settleRefunds([a])).settled).toBe(true);
      const made = (await listRefunds(a)).filter((r) => r.number === 2);
      expect(made.every((r) => r.status === 'succeeded')).toBe(true);
      const providerRefundsBefore = (await sandbox.control.ledger()).refunds.length;
      await a.close();

      await pg.restore(nightly, 'restored');
      const b = await engineOn('restored');
      // The restored daemon does not know the second refunds: the provider holds money given back that it has no row of.
      const unknownAfterRestore = (await sandbox.control.ledger()).refunds.length - (await listRefunds(b)).length;
      expect(unknownAfterRestore).toBe(CHARGES);
      for (const charge of charges) expect((await b.api().get(`/api/v1/charges/${charge.id}`)).body.amountRefunded).toBe(500);

      // The merchant asks again. On the referenced charges a refund to the balance comes first: the reference, not the order, names the refund.
      for (const [i, charge] of charges.entries()) {
        if (i % 2 === 0) expect((await askRefund(b, charge.id, { amount: 100, to: 'balance' })).status).toBe(202);
        expect((await askRefund(b, charge.id, afterBackup(i))).status).toBe(202);
      }
      expect((await settleRefunds([b])).settled).toBe(true);

      const again = (await listRefunds(b)).filter((r) => r.to === 'card' && r.status !== 'pending' && made.some((m) => m.chargeId === r.chargeId && m.amount === r.amount));
      expect(again.map((r) => [r.chargeId, r.status, r.providerRefundId]).sort()).toEqual(made.map((r) => [r.chargeId, 'succeeded', r.providerRefundId]).sort());
      const report = await assertRefundsExactlyOnce(b, sandbox, 'refunds asked again after a restore to before them');
      expect(report.made).toBe(2 * CHARGES);
      expect((await sandbox.control.ledger()).refunds).toHaveLength(providerRefundsBefore);
      console.log(
        `restore drill: ${CHARGES} refunds made after the backup, unknown to the restored daemon ${unknownAfterRestore}; asked again: adopted ${again.length}, made twice ${(await sandbox.control.ledger()).refunds.length - providerRefundsBefore}`,
      );
      for (const [i, charge] of charges.entries()) {
        expect((await b.api().get(`/api/v1/charges/${charge.id}`)).body.amountRefunded).toBe(500 + 700 + i + (i % 2 === 0 ? 100 : 0));
      }
      const adopted = /billing_refunds_adopted_total (\d+)/.exec((await b.api().get('/metrics')).text as string);
      expect(Number(adopted?.[1] ?? 0)).toBe(0);
      expect(again.every((r: RefundResponse) => r.failureCode === null)).toBe(true);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    'finishes, once, the refunds a copy taken mid-refund holds: one not sent yet and one the provider had not settled',
    async () => {
      await runMigrationsOn('midway');
      const a = await engineOn('midway');
      const { charges } = await paidCharges(a, sandbox, 2);
      const rowOf = async (engine: Engine, id: string) =>
        ((await engine.app.get(DataSource).query(`SELECT step, provider_refund_id FROM refunds WHERE id = $1`, [id])) as { step: string; provider_refund_id: string | null }[])[0];

      // Y: at the provider, still pending there when the copy is taken.
      await sandbox.control.setDelays({ refundMs: 5_000 });
      const y = (await askRefund(a, charges[0].id, { amount: 900 })).body as RefundResponse;
      await waitFor(
        async () => (await settleRefunds([a], { timeoutMs: 200, stallMs: 200 }), rowOf(a, y.id)),
        (row) => row.step === 'await',
        { what: 'refund Y recorded at the provider' },
      );
      // X: accepted and its cart fixed, but the provider is down for its create.
      await sandbox.control.addFault({ operation: 'createRefund', kind: 'unavailable' });
      const x = (await askRefund(a, charges[1].id, { amount: 600, reference: 'midway-x' })).body as RefundResponse;
      await waitFor(
        async () => (await settleRefunds([a], { timeoutMs: 200, stallMs: 200 }), rowOf(a, x.id)),
        (row) => row.step === 'create',
        { what: 'refund X waiting for its create' },
      );
      const copy = pg.dump('midway', 'midway');

      // The daemon goes on and finishes both; then the database comes back from the copy.
      await sandbox.control.clearFaults();
      await sandbox.control.setDelays({ refundMs: 5 });
      expect((await settleRefunds([a])).settled).toBe(true);
      const finished = await listRefunds(a);
      await a.close();
      await pg.restore(copy, 'midway-restored');
      const b = await engineOn('midway-restored');
      expect((await listRefunds(b)).map((r) => r.status)).toEqual(['pending', 'pending']);
      expect((await settleRefunds([b])).settled).toBe(true);

      expect((await listRefunds(b)).map((r) => [r.id, r.status, r.providerRefundId]).sort()).toEqual(finished.map((r) => [r.id, 'succeeded', r.providerRefundId]).sort());
      await assertRefundsExactlyOnce(b, sandbox, 'refunds of a copy taken mid-refund');
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it('never takes the place of a refund the restored database forgot with another one: nothing is sent, and a person is told why', async () => {
    await runMigrationsOn('conflict');
    const a = await engineOn('conflict');
    const { charges } = await paidCharges(a, sandbox, 1);
    const copy = pg.dump('conflict', 'conflict');
    expect((await askRefund(a, charges[0].id, { amount: 800 })).status).toBe(202);
    expect((await settleRefunds([a])).settled).toBe(true);
    await a.close();

    await pg.restore(copy, 'conflict-restored');
    const b = await engineOn('conflict-restored');
    const before = (await sandbox.control.ledger()).refunds.length;
    // The first card refund of the charge again, for another amount: the provider holds the first one under its externalID.
    const other = (await askRefund(b, charges[0].id, { amount: 300 })).body as RefundResponse;
    expect((await settleRefunds([b])).settled).toBe(true);
    expect((await b.api().get(`/api/v1/refunds/${other.id}`)).body).toMatchObject({ status: 'failed', failureCode: 'refund_conflict:amount_differs', providerRefundId: null });
    expect((await sandbox.control.ledger()).refunds).toHaveLength(before);
  });
});
