import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { InvoiceLine } from '../../src/gateway/provider-api.types';
import type { RefundResponse } from '../../src/refunds/refund-response';
import { Engine, listCharges, setClock } from '../billing/support/billing-fixtures';
import type { ChargeView } from '../billing/support/exactly-once';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { askRefund, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

type RefundedCharge = ChargeView & { amountRefunded: number; paidFromBalance: number; customerId: string };

/**
 * Refunds through the admin API: to the card at the provider and to the credit balance, partial and repeated, never more
 * than was paid, the part the balance paid back only to the balance; their events, the charge's amountRefunded and
 * the refund's reference.
 */
describe('refunds', () => {
  let sandbox: SandboxClient;
  let engine: Engine;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    engine = await startRefundEngine(testDatabaseUrl(), sandbox.url);
  });

  afterAll(async () => {
    await engine?.close();
    await sandbox?.close();
  });

  const charge = async (id: string): Promise<RefundedCharge> => (await engine.api().get(`/api/v1/charges/${id}`)).body as RefundedCharge;
  const refundEvents = async (refundId: string) =>
    ((await engine.api().get('/api/v1/events').query({ limit: 200 })).body.items as { type: string; data: { object: RefundResponse } }[]).filter(
      (e) => e.type.startsWith('refund.') && e.data.object.id === refundId,
    );
  const settled = async (id: string): Promise<RefundResponse> => {
    expect((await settleRefunds([engine])).settled).toBe(true);
    return (await engine.api().get(`/api/v1/refunds/${id}`)).body as RefundResponse;
  };

  it('refunds a charge to its card in parts, each with the cart that stays paid, up to what was paid, and never more', async () => {
    const { charges } = await paidCharges(engine, sandbox, 1);
    const [paid] = charges;

    const first = await askRefund(engine, paid.id, { amount: 1_000, reason: 'requested_by_customer' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ chargeId: paid.id, number: 1, amount: 1_000, currency: 'RUB', to: 'card', status: 'pending', reason: 'requested_by_customer', reference: null });
    const done = await settled(first.body.id);
    expect(done).toMatchObject({ status: 'succeeded', providerRefundId: '100', failureCode: null, completedAt: expect.any(String) });
    expect((await charge(paid.id)).amountRefunded).toBe(1_000);

    // The provider got the cart that stays paid: 1500 in the plan's proportions, its VAT rate kept.
    const [sent] = await sandbox.control.requests('createRefund');
    const cart = (sent.body as { cart: InvoiceLine[] }).cart;
    expect(cart).toEqual([
      { product: 'Seat', price: 600, quantity: 2, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
      { product: 'Support', price: 300, quantity: 1 },
    ]);

    // Without an amount: the rest. Then nothing is left.
    const rest = await askRefund(engine, paid.id, {});
    expect(rest.body).toMatchObject({ number: 2, amount: 1_500, to: 'card' });
    expect(await settled(rest.body.id)).toMatchObject({ status: 'succeeded', providerRefundId: '101' });
    const none = await askRefund(engine, paid.id, { amount: 1 });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ code: 'refund_exceeds_charge', refundable: 0 });

    const ledger = await sandbox.control.ledger();
    expect(ledger.payments.map((p) => p.status)).toEqual(['refunded']);
    expect(ledger.refunds.map((r) => [r.amount, r.status])).toEqual([
      [1_000, 'succeeded'],
      [1_500, 'succeeded'],
    ]);
    expect(await charge(paid.id)).toMatchObject({ status: 'succeeded', amountRefunded: 2_500 });
    expect((await refundEvents(first.body.id)).map((e) => [e.type, e.data.object.status, e.data.object.amount])).toEqual([['refund.succeeded', 'succeeded', 1_000]]);
    expect((await listRefunds(engine, { chargeId: paid.id })).map((r) => r.number)).toEqual([2, 1]);
  });

  it('fails a refund the bank refuses, with the provider’s code, and leaves it refundable', async () => {
    const { charges } = await paidCharges(engine, sandbox, 1, CARDS.refundsFail);
    const asked = await askRefund(engine, charges[0].id, { amount: 700 });
    expect(await settled(asked.body.id)).toMatchObject({ status: 'failed', failureCode: 'authorization_failed', providerRefundId: expect.any(String) });
    expect((await refundEvents(asked.body.id)).map((e) => [e.type, e.data.object.failureCode])).toEqual([['refund.failed', 'authorization_failed']]);
    expect((await charge(charges[0].id)).amountRefunded).toBe(0);
    expect((await askRefund(engine, charges[0].id, { to: 'balance' })).body).toMatchObject({ amount: 2_500, status: 'succeeded' });
  });

  it('refuses a charge that is not succeeded, an unknown charge and a malformed request, and makes nothing', async () => {
    const { charges } = await paidCharges(engine, sandbox, 1, CARDS.renewalInsufficientFunds);
    expect(charges[0].status).not.toBe('succeeded');
    const before = (await listRefunds(engine)).length;
    const declined = await askRefund(engine, charges[0].id, {});
    expect(declined.status).toBe(409);
    expect(declined.body.code).toBe('charge_not_refundable');
    expect((await askRefund(engine, '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e', {})).status).toBe(404);
    for (const body of [{ amount: 0 }, { amount: 1.5 }, { to: 'cash' }, { reason: 'because' }, { reference: 'has space' }, { extra: 1 }]) {
      const res = await askRefund(engine, charges[0].id, body);
      expect(res.status).toBe(400);
    }
    expect(await listRefunds(engine)).toHaveLength(before);
  });

  it('refunds to the credit balance at once, and the part the balance paid goes back only to the balance', async () => {
    const { charges, customerIds, subscriptionIds } = await paidCharges(engine, sandbox, 1);
    const [january] = charges;
    const toBalance = await askRefund(engine, january.id, { amount: 1_000, to: 'balance', reason: 'service_issue' });
    expect(toBalance.status).toBe(202);
    expect(toBalance.body).toMatchObject({ to: 'balance', status: 'succeeded', amount: 1_000, providerRefundId: null, completedAt: expect.any(String) });
    expect((await refundEvents(toBalance.body.id)).map((e) => e.type)).toEqual(['refund.succeeded']);
    const balance = (await engine.api().get(`/api/v1/customers/${customerIds[0]}/balance`)).body;
    expect(balance.balances).toEqual([{ currency: 'RUB', amount: 1_000 }]);
    expect(balance.entries[0]).toMatchObject({ kind: 'refund', amount: 1_000, chargeId: january.id });
    // The card paid 2500, of which 1000 went back to the balance: 1500 is left to refund, to the card or the balance.
    expect((await askRefund(engine, january.id, { amount: 1_501 })).body).toMatchObject({ code: 'refund_exceeds_charge', refundable: 1_500 });

    // February's charge takes the 1000 from the balance: the card pays 1500.
    await setClock(engine, '2027-02-15T10:00:00.000Z');
    await engine.runPass(4);
    const february = (await listCharges(engine)).find((c) => c.subscriptionId === subscriptionIds[0] && c.periodStart.startsWith('2027-02')) as ChargeView;
    await settledCharge(february.id);
    expect(await charge(february.id)).toMatchObject({ status: 'succeeded', amount: 2_500, paidFromBalance: 1_000 });
    const tooMuch = await askRefund(engine, february.id, { amount: 2_000 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_charge', refundable: 1_500 });
    expect(tooMuch.body.message).toContain('goes back only to the balance');
    expect((await settled((await askRefund(engine, february.id, { to: 'card' })).body.id)).amount).toBe(1_500);
    expect((await askRefund(engine, february.id, { to: 'balance' })).body).toMatchObject({ amount: 1_000, status: 'succeeded' });
    expect((await askRefund(engine, february.id, { to: 'balance', amount: 1 })).status).toBe(422);
    expect((await charge(february.id)).amountRefunded).toBe(2_500);
  });

  async function settledCharge(id: string): Promise<void> {
    for (let i = 0; i < 100 && (await charge(id)).status !== 'succeeded'; i++) await engine.runPass(4);
  }
});
