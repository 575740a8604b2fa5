import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { PayoutProcessorService } from '../../src/payouts/payout-processor.service';
import { assertExactlyOnce, createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from '../billing/support/billing-fixtures';
import { monthlyPeriodStarts } from '../billing/support/exactly-once';
import { CARDS } from '../support/test-cards';
import { futureExpDate, SETUP_BODY } from '../payouts/support/payout-fixtures';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { waitFor, waitForStatus } from '../support/wait';

/**
 * Takeover, end to end with real processes: two daemons work charges and payouts side by side; one is SIGKILLed
 * with work in flight; the other takes over every item the dead one held once its heartbeat lapses (6 s) and
 * finishes it, each step replayed with the same externalID, and the provider's ledger shows exactly one capture per
 * charge and one withdrawal per payout. The time it took is printed; the bound only tells "seconds, once the lapse
 * is over" from "never" or "after a backoff of minutes", with room for a busy machine (speed is the bench's).
 */
const BEFORE = '2027-01-14T10:00:00.000Z';
const T0 = '2027-01-15T10:00:00.000Z';
const CUSTOMERS = 40;
const PAYOUTS = 200;
const TAKEOVER_LIMIT_MS = 60_000;

interface HeldRow {
  id: string;
  kind: 'charge' | 'payout';
}

describe('A killed daemon’s work is finished by another once its heartbeat lapses', () => {
  let sandbox: SandboxClient;
  let setup: Engine;
  let db: Client;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-takeover-'));

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(testDatabaseUrl(), sandbox.url);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await db?.end();
    await setup?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Eight provider slots each: a daemon holds the charges its workers work and a batch claimed ahead, so with the
  // default sixteen one daemon could take all forty charges before the other claims any, and the victim hold none.
  const daemonEnv = (name: string) => ({ ...schedulingDaemonEnv(testDatabaseUrl(), sandbox.url, join(dataDir, name)), PROVIDER_MAX_CONCURRENCY: '8' });

  async function authorizedDestination(): Promise<string> {
    expect((await setup.api().post('/api/v1/payouts/setup').send(SETUP_BODY)).status).toBe(201);
    const created = await setup
      .api()
      .post('/api/v1/payouts/destinations')
      .send({ name: 'Recipient', currency: 'RUB', card: { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV' } });
    expect(created.status).toBe(201);
    const processor = setup.app.get(PayoutProcessorService);
    await waitFor(
      async () => {
        await processor.runOnce();
        return (await setup.api().get(`/api/v1/payouts/destinations/${created.body.id}`)).body.status as string;
      },
      (status) => status === 'Authorized',
      { timeoutMs: 60_000, everyMs: 100, what: 'destination authorized' },
    );
    return created.body.id as string;
  }

  /** Charges and payouts `owner` holds that have not reached their end. */
  async function heldBy(owner: string): Promise<HeldRow[]> {
    const { rows } = await db.query<HeldRow>(
      `SELECT id, 'charge' AS kind FROM charges WHERE lease_owner = $1 AND status NOT IN ('succeeded', 'failed', 'canceled')
       UNION ALL SELECT id, 'payout' FROM payouts WHERE lease_owner = $1 AND status NOT IN ('succeeded', 'failed')`,
      [owner],
    );
    return rows;
  }

  async function unfinished(rows: HeldRow[]): Promise<number> {
    const { rows: left } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT id FROM charges WHERE id = ANY($1::uuid[]) AND status <> 'succeeded'
         UNION ALL SELECT id FROM payouts WHERE id = ANY($2::uuid[]) AND status <> 'succeeded') x`,
      [rows.filter((r) => r.kind === 'charge').map((r) => r.id), rows.filter((r) => r.kind === 'payout').map((r) => r.id)],
    );
    return left[0].n;
  }

  it('SIGKILL mid-pass: every charge and payout it held is taken over and finished by the other daemon, each exactly once', async () => {
    await setClock(setup, BEFORE);
    const plan = await createPlan(setup);
    const customerIds = await createReadyCustomers(setup, sandbox, CUSTOMERS);
    const subscriptionIds = await subscribeAll(setup, customerIds, plan.id, T0);
    const destinationId = await authorizedDestination();
    // A slow provider, so that plenty of calls are in flight when the kill comes.
    for (const operation of ['createPayment', 'createWithdrawal'] as const) {
      await sandbox.control.addFault({ operation, kind: 'latency', latencyMs: 500 });
    }

    const [victim, survivor] = await Promise.all([startDaemon(daemonEnv('a')), startDaemon(daemonEnv('b'))]);
    daemons.push(victim, survivor);
    await Promise.all([victim, survivor].map((d) => waitForStatus(`${d.baseUrl}/health/ready`, 200, 180_000)));
    const victimWorker = await waitFor(
      async () => (await db.query<{ id: string }>('SELECT id FROM workers WHERE pid = $1', [victim.child.pid])).rows[0]?.id,
      (value) => value !== undefined,
      { timeoutMs: 60_000, everyMs: 100, what: 'the victim registered' },
    );

    // The work arrives: the periods fall due and a batch of payouts is accepted.
    await setClock(setup, T0);
    const batch = await setup.api().post('/api/v1/payouts/batches').send({ items: Array.from({ length: PAYOUTS }, () => ({ destinationId, amount: 700, currency: 'RUB' })) });
    expect(batch.status).toBe(202);

    await waitFor(
      async () => {
        const held = await heldBy(victimWorker);
        return held.some((r) => r.kind === 'charge') && held.some((r) => r.kind === 'payout') ? true : undefined;
      },
      (value) => value !== undefined,
      { timeoutMs: 60_000, everyMs: 20, what: 'the victim holds charges and payouts in flight' },
    );
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.exited;
    const held = await heldBy(victimWorker);
    expect(held.length).toBeGreaterThan(0);

    await waitFor(
      async () => {
        const left = await unfinished(held);
        if (process.env.DEBUG_TAKEOVER) {
          const { rows } = await db.query(
            `SELECT 'c' k, status, step, lease_owner, not_before > now() AS backing_off, last_error_code FROM charges WHERE id = ANY($1::uuid[])
             UNION ALL SELECT 'p', status, '', lease_owner, not_before > now(), concat(failure_code, ' due in ', round(extract(epoch from next_attempt_at - now())::numeric, 1), ' nb ', not_before::text, ' tf ', technical_failures) FROM payouts WHERE id = ANY($2::uuid[])`,
            [held.filter((r) => r.kind === 'charge').map((r) => r.id), held.filter((r) => r.kind === 'payout').map((r) => r.id)],
          );
          const summary: Record<string, number> = {};
          for (const r of rows as Record<string, unknown>[]) {
            const key = `${r.k}:${r.status}:${r.step}:${r.lease_owner === victimWorker ? 'victim' : r.lease_owner ? 'other' : 'free'}:${r.backing_off ? 'backoff' : ''}:${r.last_error_code ?? ''}`;
            summary[key] = (summary[key] ?? 0) + 1;
          }
          console.log(`${Date.now() - killedAt} ms: ${JSON.stringify(summary)}`);
        }
        return left === 0 ? true : undefined;
      },
      (value) => value !== undefined,
      { timeoutMs: 2 * TAKEOVER_LIMIT_MS, everyMs: 500, what: 'the held work finished' },
    );
    const takeoverMs = Date.now() - killedAt;
    console.log(
      `takeover: ${held.filter((r) => r.kind === 'charge').length} charges and ${held.filter((r) => r.kind === 'payout').length} payouts held by the killed daemon, all finished ${takeoverMs} ms after the kill`,
    );
    expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
    // The survivor finished them by taking the dead daemon's claims over, in both queues it held work in.
    const survivorMetrics = await (await fetch(`${survivor.baseUrl}/metrics`)).text();
    for (const queue of new Set(held.map((r) => (r.kind === 'charge' ? 'charges' : 'payouts')))) {
      expect(Number(new RegExp(`^work_takeovers_total\\{queue="${queue}"\\} (\\d+)`, 'm').exec(survivorMetrics)?.[1] ?? 0)).toBeGreaterThan(0);
    }

    // Everything settles, and the provider made each charge and each withdrawal exactly once.
    await waitFor(
      async () => {
        const { rows } = await db.query<{ open: number }>(
          `SELECT (SELECT count(*) FROM charges WHERE status <> 'succeeded') + (SELECT count(*) FROM payouts WHERE status <> 'succeeded') AS open`,
        );
        const { rows: made } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM charges');
        return Number(rows[0].open) === 0 && made[0].n === CUSTOMERS ? true : undefined;
      },
      (value) => value !== undefined,
      { timeoutMs: 120_000, everyMs: 200, what: 'all work settled' },
    );
    await assertExactlyOnce(setup, sandbox, {
      subscriptions: subscriptionIds.map((id) => ({ id, periodStarts: monthlyPeriodStarts(T0, T0) })),
      amount: plan.amount,
      currency: plan.currency,
    });
    const ledger = await sandbox.control.ledger();
    const { rows: payouts } = await db.query<{ e: string }>('SELECT withdrawal_external_id AS e FROM payouts');
    const mine = ledger.withdrawals.filter((w) => payouts.some((p) => p.e === w.externalID));
    expect(mine).toHaveLength(PAYOUTS);
    expect(new Set(mine.map((w) => w.externalID)).size).toBe(PAYOUTS);
    expect(mine.every((w) => w.status === 'Succeeded')).toBe(true);
  }, HEAVY_TEST_TIMEOUT_MS);
});
