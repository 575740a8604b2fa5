import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { runMigrations } from '../../src/database/run-migrations';
import type { LedgerWithdrawal } from '../../src/sandbox/services/ledger.service';
import { futureExpDate, SETUP_BODY } from '../payouts/support/payout-fixtures';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { waitFor, waitForStatus } from '../support/wait';
import { createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from './support/billing-fixtures';
import { DaemonAdmin, queryDatabase } from './support/daemon-admin';
import { checkExactlyOnce, monthlyPeriodStarts } from './support/exactly-once';

/**
 * The restore drill: the database comes back older than the provider (last night's backup, an asynchronous standby
 * promoted after a failover) and the daemon bills again from it. The provider, which kept everything, must show one
 * capture per period and one withdrawal per payout reference, and every charge and referenced payout must end right.
 * Backups are taken with pg_dump while a daemon works, once between two passes and once in the middle of one.
 */
const BEFORE = '2027-01-14T10:00:00.000Z';
const JAN = '2027-01-15T10:00:00.000Z';
const FEB = '2027-02-15T10:00:00.000Z';
const MAR = '2027-03-15T10:00:00.000Z';
const CUSTOMERS = 40;
/** A restored daemon bills minutes after the first did: what a period's invoice says must not depend on when it is made. */
const minutesLater = (at: string) => new Date(Date.parse(at) + 7 * 60_000).toISOString();

interface PayoutView {
  id: string;
  reference: string | null;
  status: string;
  withdrawalId: string | null;
}

describe('restore drill: a database restored to an earlier point charges and pays nothing twice', () => {
  let pg: ThrowawayPostgres;
  let sandbox: SandboxClient;
  let setup: Engine;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-restore-'));

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(pg.url, sandbox.url);
  }, 120_000);

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await setup?.close().catch(() => undefined);
    await sandbox?.close();
    pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A scheduling daemon on one database of the cluster, ready to serve. */
  async function daemonOn(database: string): Promise<DaemonAdmin> {
    const daemon = await startDaemon(schedulingDaemonEnv(pg.databaseUrl(database), sandbox.url, join(dataDir, database)));
    daemons.push(daemon);
    await waitForStatus(`${daemon.baseUrl}/health/ready`, 200, 120_000);
    return new DaemonAdmin(daemon);
  }

  /** A failover: every daemon dies at once, whatever it was doing. */
  async function killAll(): Promise<void> {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await Promise.all(daemons.map((d) => d.exited));
  }

  const succeededCharges = (database: string) =>
    queryDatabase<{ n: number }>(pg.databaseUrl(database), `SELECT count(*)::int AS n FROM charges WHERE status = 'succeeded'`).then((rows) => rows[0].n);

  async function untilSucceeded(database: string, count: number): Promise<void> {
    await waitFor(() => succeededCharges(database), (n) => n >= count, { timeoutMs: 120_000, everyMs: 200, what: `${count} charges succeeded in ${database}` });
  }

  async function untilPayoutsFinal(admin: DaemonAdmin, references: string[]): Promise<PayoutView[]> {
    return waitFor(
      async () => (await admin.listAll<PayoutView>('/api/v1/payouts')).filter((p) => p.reference !== null && references.includes(p.reference)),
      (payouts) => payouts.length === references.length && payouts.every((p) => p.status === 'succeeded' || p.status === 'failed'),
      { timeoutMs: 60_000, everyMs: 200, what: `payouts ${references.join(', ')} final` },
    );
  }

  const payoutBody = (destinationId: string, reference: string) => ({ destinationId, amount: 1_000 + Number(reference.split('-')[1]), currency: 'RUB', reference, metadata: { run: reference } });
  const refs = (prefix: string) => [1, 2, 3, 4, 5].map((n) => `${prefix}-${n}`);

  /** Captures per (subscription, period) and withdrawals per externalID beyond the first: what the drill must keep at 0. */
  async function seconds(): Promise<{ captures: number; withdrawals: number }> {
    const ledger = await sandbox.control.ledger();
    const perPeriod = new Map<string, number>();
    for (const p of ledger.payments.filter((x) => x.status === 'captured')) {
      const k = `${String(p.invoiceMetadata.subscriptionId)}@${String(p.invoiceMetadata.periodStart)}`;
      perPeriod.set(k, (perPeriod.get(k) ?? 0) + 1);
    }
    const perWithdrawal = new Map<string, number>();
    for (const w of ledger.withdrawals as LedgerWithdrawal[]) perWithdrawal.set(w.externalID ?? w.withdrawalID, (perWithdrawal.get(w.externalID ?? w.withdrawalID) ?? 0) + 1);
    const beyondFirst = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    return { captures: beyondFirst(perPeriod), withdrawals: beyondFirst(perWithdrawal) };
  }

  it('adopts the provider’s invoices, payments and withdrawals after a restore taken between passes and one taken mid-pass', async () => {
    // The merchant's setup: a plan, ready customers subscribed from JAN, payouts to one authorized card.
    await setClock(setup, BEFORE);
    const plan = await createPlan(setup);
    const customerIds = await createReadyCustomers(setup, sandbox, CUSTOMERS);
    const subscriptionIds = await subscribeAll(setup, customerIds, plan.id, JAN);
    expect((await setup.api().post('/api/v1/payouts/setup').send(SETUP_BODY)).status).toBe(201);
    const destination = await setup
      .api()
      .post('/api/v1/payouts/destinations')
      .send({ name: 'Recipient', currency: 'RUB', card: { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV' } });
    expect(destination.status).toBe(201);
    const destinationId = destination.body.id as string;
    await setup.close();

    // January is billed and paid; payouts a-* are made. Then last night's backup.
    const a = await daemonOn('billing');
    await a.setClock(JAN);
    await untilSucceeded('billing', CUSTOMERS);
    for (const reference of refs('a')) await a.expect('POST', '/api/v1/payouts', 202, payoutBody(destinationId, reference));
    await untilPayoutsFinal(a, refs('a'));
    const nightly = pg.dump('billing', 'nightly');

    // February is billed and paid, payouts b-* made: all of it after the backup.
    await a.setClock(FEB);
    await untilSucceeded('billing', 2 * CUSTOMERS);
    for (const reference of refs('b')) await a.expect('POST', '/api/v1/payouts', 202, payoutBody(destinationId, reference));
    const paidB = await untilPayoutsFinal(a, refs('b'));
    await killAll();

    // The database comes back as it was last night. The merchant submits b-* again, as it would after a lost answer.
    await pg.restore(nightly, 'restored');
    const b = await daemonOn('restored');
    expect(await succeededCharges('restored')).toBe(CUSTOMERS);
    for (const reference of refs('b')) await b.expect('POST', '/api/v1/payouts', 202, payoutBody(destinationId, reference));
    const kept = await b.expect('POST', '/api/v1/payouts', 200, payoutBody(destinationId, 'a-1'));
    expect(kept.status).toBe('succeeded');
    await b.setClock(minutesLater(FEB));
    await untilSucceeded('restored', 2 * CUSTOMERS);
    const adoptedB = await untilPayoutsFinal(b, refs('b'));
    expect(adoptedB.map((p) => [p.reference, p.status, p.withdrawalId]).sort()).toEqual(paidB.map((p) => [p.reference, 'succeeded', p.withdrawalId]).sort());
    const afterNightly = await seconds();
    console.log(
      `restore drill, backup between passes: ${await b.metric('billing_invoices_adopted_total')} invoices and ${await b.metric('billing_withdrawals_adopted_total')} withdrawals adopted; second captures ${afterNightly.captures}, second withdrawals ${afterNightly.withdrawals}`,
    );
    expect(afterNightly).toEqual({ captures: 0, withdrawals: 0 });
    expect(await b.metric('billing_invoices_adopted_total')).toBe(CUSTOMERS);
    // Each period's invoice made again is the one the provider has (same externalID, same due date): 201, no 409.
    expect(await b.metric('billing_invoice_conflicts_total')).toBe(0);

    // March, with a slow provider, and payouts c-*: the backup is taken while the pass is under way.
    await sandbox.control.addFault({ operation: 'createPayment', kind: 'latency', latencyMs: 400 });
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'latency', latencyMs: 400 });
    for (const reference of refs('c')) await b.expect('POST', '/api/v1/payouts', 202, payoutBody(destinationId, reference));
    await b.setClock(MAR);
    const midPass = await waitFor(
      () =>
        queryDatabase<{ open: number; paid: number }>(
          pg.databaseUrl('restored'),
          `SELECT count(*) FILTER (WHERE status = 'processing')::int AS open, count(*) FILTER (WHERE status = 'succeeded')::int AS paid
             FROM charges WHERE period_start = $1`,
          [MAR],
        ).then((rows) => rows[0]),
      (counts) => counts.open > 0 && counts.paid > 0 && counts.paid < CUSTOMERS,
      { timeoutMs: 60_000, everyMs: 20, what: 'a March pass under way' },
    );
    const inFlight = pg.dump('restored', 'mid-pass');
    await sandbox.control.clearFaults();
    await untilSucceeded('restored', 3 * CUSTOMERS);
    const paidC = await untilPayoutsFinal(b, refs('c'));
    await killAll();

    await pg.restore(inFlight, 'restored2');
    const state = (
      await queryDatabase<{ made: number; invoiced: number; paid: number }>(
        pg.databaseUrl('restored2'),
        `SELECT count(*)::int AS made, count(provider_invoice_id)::int AS invoiced, count(*) FILTER (WHERE status = 'succeeded')::int AS paid
           FROM charges WHERE period_start = $1`,
        [MAR],
      )
    )[0];
    console.log(`restore drill, backup mid-pass (${midPass.paid} paid, ${midPass.open} in flight when read): the copy holds ${state.made} March charges, ${state.invoiced} with an invoice, ${state.paid} paid`);
    expect(state.paid).toBeLessThan(CUSTOMERS);
    const c = await daemonOn('restored2');
    await c.setClock(minutesLater(MAR));
    await untilSucceeded('restored2', 3 * CUSTOMERS);
    const finishedC = await untilPayoutsFinal(c, refs('c'));
    expect(finishedC.map((p) => [p.reference, p.status, p.withdrawalId]).sort()).toEqual(paidC.map((p) => [p.reference, 'succeeded', p.withdrawalId]).sort());

    const afterMidPass = await seconds();
    console.log(`restore drill, backup mid-pass: second captures ${afterMidPass.captures}, second withdrawals ${afterMidPass.withdrawals}`);
    expect(afterMidPass).toEqual({ captures: 0, withdrawals: 0 });
    expect(await c.metric('billing_invoice_conflicts_total')).toBe(0);
    const report = checkExactlyOnce(await sandbox.control.ledger(), await c.charges(), {
      subscriptions: subscriptionIds.map((id) => ({ id, periodStarts: monthlyPeriodStarts(JAN, MAR) })),
      amount: plan.amount,
      currency: plan.currency,
      afterRestore: true,
    });
    expect(report.violations).toEqual([]);
    expect(report.charged).toBe(3 * CUSTOMERS);
    const withdrawals = (await sandbox.control.ledger()).withdrawals.filter((w) => w.status === 'Succeeded');
    expect(withdrawals).toHaveLength(15);
  }, 900_000);
});
