import { WorkerRegistryService } from '../../src/work/worker-registry.service';
import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { addFaults, authorizedDestination, getBatch, ledgerWithdrawals, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';

const SCHEDULED = { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '60000' };

describe('The payout scheduler', () => {
  let t: PayoutTestApp;
  let destinationId: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp({ env: SCHEDULED });
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success)).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const batchOf = async (app: PayoutTestApp, count: number): Promise<string> => {
    const items = Array.from({ length: count }, () => ({ destinationId, amount: 300, currency: 'RUB' }));
    const res = await app.api().post('/api/v1/payouts/batches').send({ items });
    expect(res.status).toBe(202);
    return res.body.id as string;
  };

  const waitSettled = (app: PayoutTestApp, batchId: string, total: number, timeoutMs = 120_000) =>
    waitFor(
      async () => (await getBatch(app, batchId)).counts,
      (counts) => counts.succeeded + counts.failed === total,
      { timeoutMs, everyMs: 50, what: `batch ${batchId} settled` },
    );

  it('starts on new payouts right away, without waiting for the interval, and follows them to the end', async () => {
    const batchId = await batchOf(t, 100);
    // The interval is a minute: settled before it first fires (with room for a busy machine), the work was started
    // by the kick on acceptance and followed by the engine's own timers.
    expect(await waitSettled(t, batchId, 100, 50_000)).toEqual({ pending: 0, processing: 0, succeeded: 100, failed: 0 });
  });

  it('on shutdown stops claiming, lets in-flight steps finish and release their payouts; another process completes them exactly once', async () => {
    const replica = await startPayoutTestApp({ env: SCHEDULED, sandbox: t.sandbox });
    // Slow provider: plenty of steps are in flight when the shutdown comes.
    await addFaults(t, [{ operation: 'createWithdrawal', kind: 'latency', latencyMs: 150 }]);
    const batchId = await batchOf(replica, 300);
    const replicaWorker = replica.app.get(WorkerRegistryService).workerId;
    await waitFor(
      async () => (await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payouts WHERE batch_id = $1 AND lease_owner = $2', [batchId, replicaWorker]))[0].n,
      (n) => n > 0,
      { everyMs: 20, what: 'the replica working on the batch' },
    );
    await replica.close();
    await t.sandboxClient.control.clearFaults();

    // The surviving process works on the batch too; nothing may stay with the one that shut down.
    const leased = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payouts WHERE batch_id = $1 AND lease_owner = $2', [batchId, replicaWorker]);
    expect(leased[0].n).toBe(0);
    const { counts } = await getBatch(t, batchId);
    expect(counts.succeeded).toBeLessThan(300);

    // The remaining payouts wait for the surviving process's next pass; kick it as new work would.
    await batchOf(t, 1);
    expect(await waitSettled(t, batchId, 300)).toEqual({ pending: 0, processing: 0, succeeded: 300, failed: 0 });
    const externalIds = new Set(
      (await t.dataSource.query<{ e: string }[]>('SELECT withdrawal_external_id AS e FROM payouts WHERE batch_id = $1', [batchId])).map((r) => r.e),
    );
    const ledger = (await ledgerWithdrawals(t)).filter((w) => externalIds.has(w.externalID ?? ''));
    expect(ledger).toHaveLength(300);
    expect(new Set(ledger.map((w) => w.externalID)).size).toBe(300);
  });
});
