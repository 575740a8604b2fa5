import type { LedgerWithdrawal } from '../../src/sandbox/services/ledger.service';
import { resetDatabase } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { CARDS } from '../support/test-cards';
import { addFaults, allStoredRows, authorizedDestination, cardDataIn, getBatch, ledgerWithdrawals, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

const BATCH_SIZE = 1_000;
/** How long the passes may run before the batch counts as stuck. */
const RUN_LIMIT_MS = 480_000;

describe('Mass payouts: a batch of 1,000 settles with exactly one succeeded withdrawal per payout', () => {
  let t: PayoutTestApp;
  let destinationIds: string[];

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
    destinationIds = [];
    for (let i = 0; i < 10; i++) destinationIds.push((await authorizedDestination(t, i % 2 === 0 ? CARDS.success : CARDS.secondSuccess, `Recipient ${i}`)).id);
  });

  afterAll(async () => {
    await t?.close();
  });

  const items = (count: number, tag: string) =>
    Array.from({ length: count }, (_, i) => ({ destinationId: destinationIds[i % destinationIds.length], amount: 100 + i, currency: 'RUB', metadata: { row: i, tag } }));

  const payoutsOf = async (batchId: string) =>
    t.dataSource.query<{ id: string; status: string; withdrawal_external_id: string; provider_withdrawal_id: string | null; amount: string }[]>(
      'SELECT id, status, withdrawal_external_id, provider_withdrawal_id, amount FROM payouts WHERE batch_id = $1',
      [batchId],
    );

  /** One ledger withdrawal per payout (matched by externalID), Succeeded, with the payout's amount and id. */
  const expectExactlyOneSucceededEach = async (batchId: string) => {
    const payouts = await payoutsOf(batchId);
    expect(payouts).toHaveLength(BATCH_SIZE);
    const byExternalId = new Map<string, LedgerWithdrawal[]>();
    for (const w of await ledgerWithdrawals(t)) {
      if (w.externalID === undefined) continue;
      byExternalId.set(w.externalID, [...(byExternalId.get(w.externalID) ?? []), w]);
    }
    const problems = payouts.flatMap((p) => {
      const made = byExternalId.get(p.withdrawal_external_id) ?? [];
      const ok = p.status === 'succeeded' && made.length === 1 && made[0].status === 'Succeeded' && made[0].withdrawalID === p.provider_withdrawal_id && made[0].amount === Number(p.amount);
      return ok ? [] : [{ payout: p, withdrawals: made }];
    });
    expect(problems).toEqual([]);
  };

  it('accepts 1,000 payouts at once (202 with counts) and settles them; reports payouts per second', async () => {
    const accepted = await t.api().post('/api/v1/payouts/batches').send({ items: items(BATCH_SIZE, 'clean') });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ id: expect.any(String), total: BATCH_SIZE, counts: { pending: BATCH_SIZE, processing: 0, succeeded: 0, failed: 0 }, createdAt: expect.any(String) });
    const batchId = accepted.body.id as string;

    const started = performance.now();
    const { value: counts } = await runUntil(
      t,
      async () => {
        const batch = await getBatch(t, batchId);
        return batch.counts.succeeded + batch.counts.failed === BATCH_SIZE ? batch.counts : undefined;
      },
      RUN_LIMIT_MS,
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`Payout throughput: ${BATCH_SIZE} payouts settled in ${seconds.toFixed(2)} s = ${(BATCH_SIZE / seconds).toFixed(0)} payouts/s (one process, PROVIDER_MAX_CONCURRENCY 16, sandbox withdrawal delay 10 ms)`);

    expect(counts).toEqual({ pending: 0, processing: 0, succeeded: BATCH_SIZE, failed: 0 });
    await expectExactlyOneSucceededEach(batchId);

    // The whole batch shares one creation time: paging must still visit every payout exactly once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await t
        .api()
        .get(`/api/v1/payouts?batchId=${batchId}&status=succeeded&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.items.map((p) => p.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(BATCH_SIZE);
    expect(new Set(seen).size).toBe(BATCH_SIZE);
  }, HEAVY_TEST_TIMEOUT_MS);

  it('settles another 1,000 exactly once with provider faults injected and two replicas working side by side', async () => {
    const replica = await startPayoutTestApp({ sandbox: t.sandbox });
    try {
      // About one request in five fails: 503 before the effect, 504 or a reset after it (the withdrawal exists).
      await addFaults(
        t,
        (['createWithdrawal', 'getWithdrawal'] as const).flatMap((operation) =>
          (['unavailable', 'timeout_after_effect', 'reset_after_effect'] as const).map((kind) => ({ operation, kind, probability: 0.075 })),
        ),
      );
      const accepted = await t.api().post('/api/v1/payouts/batches').send({ items: items(BATCH_SIZE, 'faults') });
      expect(accepted.status).toBe(202);
      const batchId = accepted.body.id as string;

      await runUntil(
        [t, replica],
        async () => {
          const batch = await getBatch(t, batchId);
          return batch.counts.succeeded + batch.counts.failed === BATCH_SIZE ? batch : undefined;
        },
        RUN_LIMIT_MS,
      );
      const hits = await t.sandboxClient.control.faults();
      await t.sandboxClient.control.clearFaults();
      for (const kind of ['unavailable', 'timeout_after_effect', 'reset_after_effect']) {
        expect(hits.filter((h) => h.kind === kind).reduce((sum, h) => sum + h.hits, 0)).toBeGreaterThan(10);
      }
      expect((await getBatch(t, batchId)).counts).toEqual({ pending: 0, processing: 0, succeeded: BATCH_SIZE, failed: 0 });
      await expectExactlyOneSucceededEach(batchId);

      // No lease is left behind, and both replicas settled part of the batch.
      const owners = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payouts WHERE lease_owner IS NOT NULL');
      expect(owners[0].n).toBe(0);
      const settledBy = async (app: PayoutTestApp) =>
        Number(/billing_payouts_total\{outcome="succeeded"\} (\d+)/.exec((await app.api().get('/metrics')).text)?.[1] ?? 0);
      const byReplica = await settledBy(replica);
      expect(byReplica).toBeGreaterThan(0);
      expect(byReplica).toBeLessThan(BATCH_SIZE);
      // Lost answers to withdrawal creates were resolved by repeating the same request (the gateway's retries, then ours).
      const replayed = async (app: PayoutTestApp) =>
        Number(/billing_provider_retries_total\{operation="createWithdrawal",result="unknown_outcome"\} (\d+)/.exec((await app.api().get('/metrics')).text)?.[1] ?? 0);
      expect((await replayed(t)) + (await replayed(replica))).toBeGreaterThan(10);
      expect(cardDataIn(replica.logs)).toEqual([]);
    } finally {
      await replica.close();
    }
  }, HEAVY_TEST_TIMEOUT_MS);

  it('the ledger holds no withdrawal that no payout asked for', async () => {
    const externalIds = new Set((await t.dataSource.query<{ e: string }[]>('SELECT withdrawal_external_id AS e FROM payouts')).map((r) => r.e));
    const ledger = await ledgerWithdrawals(t);
    expect(ledger.filter((w) => !externalIds.has(w.externalID ?? ''))).toEqual([]);
    expect(ledger).toHaveLength(2 * BATCH_SIZE);
  });

  it('kept no card number or CVV in any database column or log line', async () => {
    expect(cardDataIn(t.logs)).toEqual([]);
    expect(cardDataIn(await allStoredRows(t))).toEqual([]);
  });
});
