import type { LedgerWithdrawal } from '../../src/sandbox/services/ledger.service';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { waitFor } from '../support/wait';
import { addFaults, allStoredRows, authorizedDestination, cardDataIn, ledgerWithdrawals, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';
import { WorkerLine, WorkerProcess } from './support/payout-worker-process';

const BATCH_SIZE = 1_000;

describe('Mass payouts across processes: a worker killed mid-batch, another taking over', () => {
  let t: PayoutTestApp;
  let destinationIds: string[];
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
    destinationIds = [];
    for (let i = 0; i < 10; i++) destinationIds.push((await authorizedDestination(t, i % 2 === 0 ? CARDS.success : CARDS.secondSuccess)).id);
  });

  afterAll(async () => {
    for (const worker of workers) worker.kill();
    await t?.close();
  });

  const startWorker = (env: Record<string, string>) => {
    const worker = new WorkerProcess({ TEST_DB_URL: testDatabaseUrl(), SANDBOX_URL: t.sandbox.url, ...env });
    workers.push(worker);
    return worker;
  };

  const postBatch = async (tag: string): Promise<string> => {
    const items = Array.from({ length: BATCH_SIZE }, (_, i) => ({ destinationId: destinationIds[i % destinationIds.length], amount: 1000 + i, currency: 'RUB', metadata: { tag } }));
    const res = await t.api().post('/api/v1/payouts/batches').send({ items });
    expect(res.status).toBe(202);
    return res.body.id as string;
  };

  const settledCount = async (batchId: string): Promise<number> =>
    (await t.dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM payouts WHERE batch_id = $1 AND status IN ('succeeded', 'failed')`, [batchId]))[0].n;

  const expectExactlyOneSucceededEach = async (batchId: string) => {
    const payouts = await t.dataSource.query<{ status: string; withdrawal_external_id: string; provider_withdrawal_id: string | null }[]>(
      'SELECT status, withdrawal_external_id, provider_withdrawal_id FROM payouts WHERE batch_id = $1',
      [batchId],
    );
    expect(payouts).toHaveLength(BATCH_SIZE);
    const byExternalId = new Map<string, LedgerWithdrawal[]>();
    for (const w of await ledgerWithdrawals(t)) {
      if (w.externalID !== undefined) byExternalId.set(w.externalID, [...(byExternalId.get(w.externalID) ?? []), w]);
    }
    const problems = payouts.filter((p) => {
      const made = byExternalId.get(p.withdrawal_external_id) ?? [];
      return !(p.status === 'succeeded' && made.length === 1 && made[0].status === 'Succeeded' && made[0].withdrawalID === p.provider_withdrawal_id);
    });
    expect(problems).toEqual([]);
  };

  it('one daemon process settles a batch of 1,000 against the sandbox in another process (throughput)', async () => {
    const batchId = await postBatch('throughput');
    const worker = startWorker({ WORKER_EXIT_WHEN_DONE: 'true' });
    const exit = await worker.exited;
    expect({ exit, error: worker.last('error') }).toEqual({ exit: { code: 0, signal: null }, error: undefined });
    const done = worker.last('done') as WorkerLine;
    console.log(
      `Payout throughput (daemon process alone, sandbox in the test process): ${done.settled} payouts in ${done.seconds?.toFixed(2)} s = ${((done.settled ?? 0) / (done.seconds ?? 1)).toFixed(0)} payouts/s`,
    );
    expect(await settledCount(batchId)).toBe(BATCH_SIZE);
    await expectExactlyOneSucceededEach(batchId);
  }, HEAVY_TEST_TIMEOUT_MS);

  it('settles every payout exactly once when its worker is SIGKILLed mid-batch under provider faults and a new one takes over', async () => {
    await addFaults(
      t,
      (['createWithdrawal', 'getWithdrawal'] as const).flatMap((operation) =>
        (['unavailable', 'timeout_after_effect', 'reset_after_effect'] as const).map((kind) => ({ operation, kind, probability: 0.075 })),
      ),
    );
    const batchId = await postBatch('crash');
    const first = startWorker({});
    await waitFor(() => settledCount(batchId), (settled) => settled >= 250, {
      timeoutMs: 240_000,
      everyMs: 50,
      what: 'the first worker settling 250 payouts',
    }).catch((e: Error) => {
      throw new Error(`${e.message}; its last lines: ${first.lines.slice(-5).join('\n')}`);
    });
    first.kill();
    expect((await first.exited).signal).toBe('SIGKILL');
    const atKill = await settledCount(batchId);
    expect(atKill).toBeLessThan(BATCH_SIZE);
    // The killed worker left payouts leased in the middle of their steps.
    const leased = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payouts WHERE batch_id = $1 AND lease_owner IS NOT NULL', [batchId]);
    expect(leased[0].n).toBeGreaterThan(0);
    // Payouts the database still shows as not sent although the provider already made their withdrawal: the
    // replacement must find these by replaying the same externalID, never by sending a new one.
    const unsent = await t.dataSource.query<{ e: string }[]>(
      `SELECT withdrawal_external_id AS e FROM payouts WHERE batch_id = $1 AND status = 'pending'`,
      [batchId],
    );
    const atProvider = new Set((await ledgerWithdrawals(t)).map((w) => w.externalID));
    console.log(`At the kill: ${atKill} settled, ${leased[0].n} leased, ${unsent.filter((r) => atProvider.has(r.e)).length} made at the provider but not yet recorded`);

    const second = startWorker({ WORKER_EXIT_WHEN_DONE: 'true' });
    const exit = await second.exited;
    await t.sandboxClient.control.clearFaults();
    expect({ exit, error: second.last('error') }).toEqual({ exit: { code: 0, signal: null }, error: undefined });
    expect(second.last('done')?.takeovers).toBeGreaterThan(0);

    expect(await settledCount(batchId)).toBe(BATCH_SIZE);
    await expectExactlyOneSucceededEach(batchId);
  }, HEAVY_TEST_TIMEOUT_MS);

  it('no worker wrote a card number or CVV to its log, and no column holds one', async () => {
    const lines = workers.flatMap((w) => w.lines);
    expect(lines.length).toBeGreaterThan(0);
    expect(cardDataIn(lines)).toEqual([]);
    expect(cardDataIn(t.logs)).toEqual([]);
    expect(cardDataIn(await allStoredRows(t))).toEqual([]);
  });
});
