import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { runMigrations } from '../../src/database/run-migrations';
import { futureExpDate, SETUP_BODY } from '../payouts/support/payout-fixtures';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { waitFor, waitForStatus } from '../support/wait';

/**
 * A daemon killed (SIGKILL) after a payout was committed but before the Idempotency-Key's answer was stored; a new
 * daemon takes the key over once the first request counts as dead, and the retry answers that payout: one payout,
 * one withdrawal at the provider. The window (milliseconds in life) is held open by a trigger that sleeps on the
 * answer's write, on a cluster of the test's own: the embedded database runs one statement at a time (a sleeping trigger
 * would stop every session, this test's too), and on a shared server another run's sessions must not be touched.
 */
describe('Idempotency-Key across a crash between the effect and the answer', () => {
  let sandbox: SandboxClient;
  let db: Client;
  let pg: ThrowawayPostgres;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-idempotency-crash-'));

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    db = new Client({ connectionString: pg.url });
    await db.connect();
  });

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await db?.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'UPDATE idempotency_records%' AND pid <> pg_backend_pid()`).catch(() => undefined);
    await db?.query('DROP TRIGGER IF EXISTS hold_idempotency_answer ON idempotency_records').catch(() => undefined);
    await db?.end();
    await sandbox?.close();
    pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(name: string): Promise<DaemonProcess> {
    const daemon = await startDaemon(schedulingDaemonEnv(pg.url, sandbox.url, join(dataDir, name)));
    daemons.push(daemon);
    await waitForStatus(`${daemon.baseUrl}/health/ready`, 200, 90_000);
    return daemon;
  }

  const api = (daemon: DaemonProcess, path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${daemon.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  const get = async (daemon: DaemonProcess, path: string): Promise<{ status?: string }> => ((await fetch(`${daemon.baseUrl}${path}`, { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json()) as { status?: string };

  async function authorizedDestination(daemon: DaemonProcess): Promise<string> {
    expect((await api(daemon, '/api/v1/payouts/setup', SETUP_BODY)).status).toBe(201);
    const card = { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV' };
    const created = await api(daemon, '/api/v1/payouts/destinations', { name: 'Recipient', currency: 'RUB', card });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await waitFor(() => get(daemon, `/api/v1/payouts/destinations/${id}`), (d) => d.status === 'Authorized', {
      timeoutMs: 30_000,
      everyMs: 100,
      what: 'the destination authorized',
    });
    return id;
  }

  const payoutsOfCase = async () => (await db.query<{ id: string }>(`SELECT id FROM payouts WHERE metadata->>'case' = 'crash'`)).rows;

  it('SIGKILL after the payout is committed and before the answer is stored: the retry after takeover answers that payout', async () => {
    const first = await start('first');
    const destinationId = await authorizedDestination(first);
    const body = { destinationId, amount: 9876, currency: 'RUB', metadata: { case: 'crash' } };

    // Every answer write now waits long enough for the kill to land between the payout's commit and the answer.
    await db.query(`CREATE OR REPLACE FUNCTION hold_idempotency_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(120); RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER hold_idempotency_answer BEFORE UPDATE ON idempotency_records
      FOR EACH ROW WHEN (NEW.status_code IS NOT NULL) EXECUTE FUNCTION hold_idempotency_answer()`);
    const lost = api(first, '/api/v1/payouts', body, { 'Idempotency-Key': 'crash-payout' }).catch((error: unknown) => error);
    const answerWrite = await waitFor(
      async () => (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'UPDATE idempotency_records SET status_code%' AND state = 'active'`)).rows[0],
      (row) => row !== undefined,
      { timeoutMs: 30_000, everyMs: 50, what: 'the answer write is in progress' },
    );
    expect(await payoutsOfCase()).toHaveLength(1);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(await lost).not.toHaveProperty('status');
    // The dead process's statement never completes: its session ends with it.
    await db.query('SELECT pg_terminate_backend($1)', [answerWrite.pid]);
    await db.query('DROP TRIGGER hold_idempotency_answer ON idempotency_records');
    const [record] = (await db.query<{ status_code: number | null }>('SELECT status_code FROM idempotency_records')).rows;
    expect(record.status_code).toBeNull();
    // Five minutes pass: the unanswered key counts as dead and may be taken over.
    await db.query(`UPDATE idempotency_records SET created_at = created_at - interval '6 minutes'`);

    const second = await start('second');
    const retried = await api(second, '/api/v1/payouts', body, { 'Idempotency-Key': 'crash-payout' });
    expect(retried.status).toBe(202);
    const payout = (await retried.json()) as { id: string };
    expect((await payoutsOfCase()).map((p) => p.id)).toEqual([payout.id]);

    await waitFor(() => get(second, `/api/v1/payouts/${payout.id}`), (p) => p.status === 'succeeded', { timeoutMs: 30_000, everyMs: 100, what: 'the payout succeeded' });
    const withdrawals = (await sandbox.control.ledger()).withdrawals.filter((w) => w.amount === 9876);
    expect(withdrawals).toHaveLength(1);
    expect(await payoutsOfCase()).toHaveLength(1);
  }, 180_000);
});
