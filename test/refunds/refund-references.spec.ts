import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { RefundResponse } from '../../src/refunds/refund-response';
import type { Engine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { askRefund, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

/**
 * A refund's `reference` and `Idempotency-Key`, and requests that race: the same request answers the refund already
 * made; concurrent refunds of one charge, on one replica or two, never take more than was paid.
 */
describe('refund references, repeats and races', () => {
  let sandbox: SandboxClient;
  let engines: Engine[];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    engines = [await startRefundEngine(testDatabaseUrl(), sandbox.url), await startRefundEngine(testDatabaseUrl(), sandbox.url)];
  });

  afterAll(async () => {
    for (const engine of engines ?? []) await engine.close();
    await sandbox?.close();
  });

  it('answers the same reference and request with the refund made (200), and 409 naming it for another request', async () => {
    const [engine] = engines;
    const { charges } = await paidCharges(engine, sandbox, 2);
    const body = { amount: 400, reason: 'duplicate', reference: 'crm-ticket-4711' };
    const first = await askRefund(engine, charges[0].id, body);
    expect(first.status).toBe(202);
    expect(first.body.reference).toBe('crm-ticket-4711');

    const again = await askRefund(engine, charges[0].id, body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    // Without an amount the request asks for "the rest": it names the refund made too.
    expect((await askRefund(engine, charges[0].id, { reason: 'duplicate', reference: 'crm-ticket-4711' })).body.id).toBe(first.body.id);

    for (const other of [{ ...body, amount: 401 }, { ...body, to: 'balance' }, { ...body, reason: 'other' }]) {
      const refused = await askRefund(engine, charges[0].id, other);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'refund_reference_taken', field: 'reference', refundId: first.body.id });
    }
    expect((await askRefund(engine, charges[1].id, body)).body).toMatchObject({ code: 'refund_reference_taken', refundId: first.body.id });
    expect((await listRefunds(engine, { reference: 'crm-ticket-4711' })).map((r) => r.id)).toEqual([first.body.id]);
    expect((await settleRefunds([engine])).settled).toBe(true);
    expect((await sandbox.control.ledger()).refunds).toHaveLength(1);
  });

  it('answers a repeat of an Idempotency-Key with the refund its first request made, and makes one provider refund', async () => {
    const [engine] = engines;
    const { charges } = await paidCharges(engine, sandbox, 1);
    const first = await askRefund(engine, charges[0].id, { amount: 300 }, 'refund-key-1');
    const again = await askRefund(engine, charges[0].id, { amount: 300 }, 'refund-key-1');
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.body.id).toBe(first.body.id);
    expect((await askRefund(engine, charges[0].id, { amount: 301 }, 'refund-key-1')).body.code).toBe('idempotency_key_reused');
    expect((await settleRefunds([engine])).settled).toBe(true);
    const made = (await sandbox.control.ledger()).refunds.filter((r) => r.invoiceID === charges[0].invoiceId);
    expect(made.map((r) => [r.amount, r.status])).toEqual([[300, 'succeeded']]);
  });

  it('never accepts more than was paid when 30 refunds of one charge race on two replicas, and the provider makes each accepted one once', async () => {
    const { charges } = await paidCharges(engines[0], sandbox, 1);
    const chargeId = charges[0].id;
    // 2500 paid: 30 asks of 100 to the card and 100 to the balance, alternately, on alternate replicas.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => askRefund(engines[i % 2], chargeId, { amount: 100, to: i % 3 === 0 ? 'balance' : 'card', reference: `race-${i}` })),
    );
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.body as RefundResponse);
    const refused = answers.filter((a) => a.status !== 202);
    expect(accepted).toHaveLength(25);
    expect(refused.every((r) => r.status === 422 && r.body.code === 'refund_exceeds_charge')).toBe(true);
    expect(new Set(accepted.map((r) => r.number))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => i + 1)));

    expect((await settleRefunds(engines)).settled).toBe(true);
    const final = await listRefunds(engines[0], { chargeId });
    expect(final.every((r) => r.status === 'succeeded')).toBe(true);
    const atProvider = (await sandbox.control.ledger()).refunds.filter((r) => r.invoiceID === charges[0].invoiceId);
    const toCard = accepted.filter((r) => r.to === 'card');
    expect(atProvider.map((r) => r.status)).toEqual(toCard.map(() => 'succeeded'));
    expect(new Set(atProvider.map((r) => r.externalID)).size).toBe(toCard.length);
    expect(atProvider.reduce((sum, r) => sum + r.amount, 0)).toBe(toCard.length * 100);
    expect((await engines[1].api().get(`/api/v1/charges/${chargeId}`)).body.amountRefunded).toBe(2_500);
  });
});
