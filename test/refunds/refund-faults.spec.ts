import { DataSource } from 'typeorm';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { RefundResponse } from '../../src/refunds/refund-response';
import { canonicalJson } from '../../src/sandbox/services/idempotency.service';
import type { Engine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import type { FaultKind, ProviderOperation } from '../support/sandbox-control';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { askRefund, assertRefundsExactlyOnce, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

/**
 * Exactly-once refunds against a provider that fails: every fault the charges' tests inject (503s, 504s after the
 * effect, connections reset after it), and the states a daemon killed between a provider call and its record leaves
 * behind. Whatever happens, each refund the daemon accepted is made at most once at the provider, ends as the
 * provider's refund did, and no payment gives back more than it captured.
 */
describe('exactly-once refunds under provider faults and at every kill point', () => {
  let sandbox: SandboxClient;
  let engine: Engine;

  beforeEach(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
  });

  afterEach(async () => {
    await engine?.close();
    await sandbox?.close();
  });

  const refund = async (id: string): Promise<RefundResponse> => (await engine.api().get(`/api/v1/refunds/${id}`)).body as RefundResponse;

  it(
    'makes every refund of 12 charges exactly once through 503s, 504s after the effect and connection resets',
    async () => {
      engine = await startRefundEngine(testDatabaseUrl(), sandbox.url);
      const { charges } = await paidCharges(engine, sandbox, 12);
      const operations: ProviderOperation[] = ['createRefund', 'getRefund', 'getRefunds', 'getRefundByExternalId', 'getInvoice', 'getPayments'];
      const kinds: FaultKind[] = ['unavailable', 'timeout_after_effect', 'reset_after_effect'];
      for (const operation of operations) for (const kind of kinds) await sandbox.control.addFault({ operation, kind, probability: 0.3 });

      // Each charge: a part to the card, the rest to the card; every third one gives 500 to the balance first.
      const asked: RefundResponse[] = [];
      for (const [i, charge] of charges.entries()) {
        if (i % 3 === 0) asked.push((await askRefund(engine, charge.id, { amount: 500, to: 'balance' })).body as RefundResponse);
        asked.push((await askRefund(engine, charge.id, { amount: 1_000, reason: 'requested_by_customer' })).body as RefundResponse);
        asked.push((await askRefund(engine, charge.id, {})).body as RefundResponse);
      }
      expect(asked.map((r) => r.status).filter((s) => s !== 'pending' && s !== 'succeeded')).toEqual([]);

      const underFaults = await settleRefunds([engine], { timeoutMs: 180_000, stallMs: 60_000 });
      const rules = await sandbox.control.faults();
      await sandbox.control.clearFaults();
      const after = await settleRefunds([engine]);

      expect(underFaults.settled || after.settled).toBe(true);
      const report = await assertRefundsExactlyOnce(engine, sandbox, 'refunds under 503s, 504s after the effect and resets');
      expect(report.attempted).toBe(24);
      expect((await listRefunds(engine)).filter((r) => r.status !== 'succeeded')).toEqual([]);
      for (const charge of charges) expect((await engine.api().get(`/api/v1/charges/${charge.id}`)).body.amountRefunded).toBe(2_500);
      // The faults really fired, including those where the provider made the refund and the answer was lost.
      const hits = (operation: ProviderOperation, kind: FaultKind) => rules.filter((r) => r.operation === operation && r.kind === kind).reduce((n, r) => n + r.hits, 0);
      expect(hits('createRefund', 'timeout_after_effect') + hits('createRefund', 'reset_after_effect')).toBeGreaterThan(0);
      expect(hits('createRefund', 'unavailable')).toBeGreaterThan(0);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  /**
   * Deterministic kill points: the state a `kill -9` leaves at one step boundary of a refund, followed by the next run.
   * 'created' is produced by the provider (the refund is made, every answer is lost); the others rewind a refund that
   * went through to exactly the row RefundProcessorService had committed at that boundary, its holder dead, while the
   * provider keeps everything it did.
   */
  describe('a refund left behind by a daemon that died', () => {
    const boundaries = [
      ['after its cart was fixed, before the create was sent', 'prepared'],
      ['after the provider made the refund, before the daemon recorded it', 'created'],
      ['after the daemon recorded the provider’s refund, before it read the outcome', 'recorded'],
      ['after the refund succeeded at the provider, before the daemon recorded the outcome', 'finished'],
    ] as const;

    it.each(boundaries)(
      '%s is made once and settled by the next run',
      async (_label, boundary) => {
        // A lost create backs off for an hour, so the state can be looked at before the next run replays it.
        const slowBackoff = boundary === 'created' || boundary === 'prepared';
        engine = await startRefundEngine(testDatabaseUrl(), sandbox.url, { work: slowBackoff ? { backoffMs: 3_600_000, maxBackoffMs: 3_600_000 } : {} });
        const { charges } = await paidCharges(engine, sandbox, 1);
        const db = engine.app.get(DataSource);

        if (slowBackoff) {
          // 'prepared': the provider is down for the create (nothing made); 'created': it makes the refund and every answer is lost.
          await sandbox.control.addFault({ operation: 'createRefund', kind: boundary === 'created' ? 'reset_after_effect' : 'unavailable', count: 4 });
          const asked = await askRefund(engine, charges[0].id, { amount: 700 });
          await settleRefunds([engine], { timeoutMs: 10_000, stallMs: 5_000 });
          expect((await sandbox.control.faults())[0].hits).toBe(4);
          expect(await refund(asked.body.id)).toMatchObject({ status: 'pending', providerRefundId: null });
          expect((await sandbox.control.ledger()).refunds).toHaveLength(boundary === 'created' ? 1 : 0);
          await sandbox.control.clearFaults();
          // Its holder died: the lease lapsed, and the hour has passed.
          await db.query(`UPDATE refunds SET lease_owner = 'killed-daemon', not_before = now()`);
        } else {
          const asked = await askRefund(engine, charges[0].id, { amount: 700 });
          expect((await settleRefunds([engine])).settled).toBe(true);
          const done = await refund(asked.body.id);
          expect(done.status).toBe('succeeded');
          await db.transaction(async (em) => {
            await em.query(
              `UPDATE refunds SET status = 'pending', step = 'await', completed_at = NULL, next_attempt_at = now(), lease_owner = 'killed-daemon',
                      provider_refund_id = CASE WHEN $2 THEN provider_refund_id ELSE provider_refund_id END
                WHERE id = $1`,
              [done.id, boundary === 'recorded'],
            );
            // The event commits with the outcome, so it is not there yet either.
            await em.query(`DELETE FROM events WHERE type = 'refund.succeeded' AND data->'object'->>'id' = $1`, [done.id]);
          });
          if (boundary === 'recorded') {
            // Before the outcome, the provider's refund was still pending: the sandbox keeps its outcome, the row does not.
            expect(await refund(done.id)).toMatchObject({ status: 'pending', providerRefundId: done.providerRefundId });
          }
        }

        expect((await settleRefunds([engine], { timeoutMs: 60_000 })).settled).toBe(true);
        await assertRefundsExactlyOnce(engine, sandbox, `refund killed ${boundary}`);
        const [made] = await listRefunds(engine);
        expect(made).toMatchObject({ status: 'succeeded', amount: 700 });
        const events = ((await engine.api().get('/api/v1/events').query({ type: 'refund.succeeded' })).body.items as { data: { object: { id: string } } }[]).filter(
          (e) => e.data.object.id === made.id,
        );
        expect(events).toHaveLength(1);
        // Every create, first try or replay, carried the refund's one externalID with the same body (keys in any order).
        const creates = await sandbox.control.requests('createRefund');
        expect(creates.length).toBeGreaterThan(0);
        expect(new Set(creates.map((r) => canonicalJson(r.body))).size).toBe(1);
        expect((await engine.api().get(`/api/v1/charges/${charges[0].id}`)).body.amountRefunded).toBe(700);
      },
      HEAVY_TEST_TIMEOUT_MS,
    );
  });
});
