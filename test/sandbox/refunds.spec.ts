import type { InvoiceLine, Refund, Webhook } from '../../src/gateway/provider-api.types';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { readInvoice, readInvoiceEvents, useSandbox } from './support/sandbox-suite';
import { WebhookReceiver } from './support/webhook-receiver';

/** 2 × 500 at 22 % VAT and 500 without: the invoice of 1500 every test pays first. */
const CART: InvoiceLine[] = [
  { product: 'Seat', price: 500, quantity: 2, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
  { product: 'Support', price: 500, quantity: 1 },
];

describe('sandbox: refunds of captured payments', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  /** A captured payment of 1500 on a customer bound with `card`. */
  async function capturedPayment(card: string = CARDS.success): Promise<{ invoiceID: string; paymentID: string; invoiceToken: string }> {
    const customer = await sandbox.readyCustomer(card);
    const { invoice, invoiceAccessToken } = await sandbox.createInvoice({ amount: undefined, cart: CART });
    const paid = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
    expect((await sandbox.finalPayment(invoice.id, paid.data.id)).status).toBe('captured');
    return { invoiceID: invoice.id, paymentID: paid.data.id, invoiceToken: invoiceAccessToken.payload };
  }

  const refundsPath = (invoiceID: string, paymentID: string) => `/v2/processing/invoices/${invoiceID}/payments/${paymentID}/refunds`;
  const refund = (invoiceID: string, paymentID: string, body: Record<string, unknown>, token?: string) =>
    sandbox.call<Refund>('POST', refundsPath(invoiceID, paymentID), { body, ...(token ? { token } : {}) });
  const finalRefund = (invoiceID: string, paymentID: string, refundID: string) =>
    waitFor(
      async () => (await sandbox.call<Refund>('GET', `${refundsPath(invoiceID, paymentID)}/${refundID}`)).data,
      (r) => r.status !== 'pending',
      { everyMs: 5, what: `refund ${refundID} final` },
    );
  const paymentStatus = async (invoiceID: string, paymentID: string) => (await sandbox.call<{ status: string }>('GET', `/v2/processing/invoices/${invoiceID}/payments/${paymentID}`)).data.status;

  it('refunds in parts, one at a time, up to what was captured: ids from 100, the payment refunded at the end, the invoice still paid', async () => {
    const { invoiceID, paymentID } = await capturedPayment();
    // The cart that stays paid: 1100, the tax rates kept.
    const remaining = [{ ...CART[0], price: 300 }, CART[1]];
    const first = await refund(invoiceID, paymentID, { externalID: 'rf-1', amount: 400, currency: 'RUB', reason: 'requested_by_customer', cart: remaining });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ id: '100', amount: 400, currency: 'RUB', status: 'pending', externalID: 'rf-1', reason: 'requested_by_customer' });
    expect(first.data.cart?.map((l) => l.cost)).toEqual([600, 500]);
    expect(await finalRefund(invoiceID, paymentID, '100')).toMatchObject({ status: 'succeeded' });
    expect(await paymentStatus(invoiceID, paymentID)).toBe('captured');

    // Without an amount: whatever remains.
    const rest = await refund(invoiceID, paymentID, { externalID: 'rf-2' });
    expect(rest.data).toMatchObject({ id: '101', amount: 1100, status: 'pending' });
    expect(await finalRefund(invoiceID, paymentID, '101')).toMatchObject({ status: 'succeeded' });
    expect(await paymentStatus(invoiceID, paymentID)).toBe('refunded');
    expect((await readInvoice(sandbox, invoiceID)).status).toBe('paid');
    const nothingLeft = await refund(invoiceID, paymentID, { amount: 1 });
    expect(nothingLeft).toMatchObject({ status: 400, data: { code: 'invalidPaymentStatus' } });

    const listed = await sandbox.call<Refund[]>('GET', refundsPath(invoiceID, paymentID));
    expect(listed.data.map((r) => [r.id, r.amount, r.status])).toEqual([
      ['100', 400, 'succeeded'],
      ['101', 1100, 'succeeded'],
    ]);
    const changes = (await readInvoiceEvents(sandbox, invoiceID)).flatMap((e) => e.changes).filter((c) => c.changeType.startsWith('Refund') || ('status' in c && c.status === 'refunded'));
    expect(changes).toEqual([
      { changeType: 'RefundStarted', paymentID, refund: expect.objectContaining({ id: '100', status: 'pending' }) },
      { changeType: 'RefundStatusChanged', paymentID, refundID: '100', status: 'succeeded' },
      { changeType: 'RefundStarted', paymentID, refund: expect.objectContaining({ id: '101', status: 'pending' }) },
      { changeType: 'RefundStatusChanged', paymentID, refundID: '101', status: 'succeeded' },
      { changeType: 'PaymentStatusChanged', paymentID, status: 'refunded' },
    ]);
    const ledger = await sandbox.control.ledger();
    expect(ledger.payments[0].status).toBe('refunded');
    expect(ledger.refunds.map((r) => [r.refundID, r.amount, r.status, r.externalID, r.paymentAmount])).toEqual([
      ['100', 400, 'succeeded', 'rf-1', 1500],
      ['101', 1100, 'succeeded', 'rf-2', 1500],
    ]);
  });

  it("refuses what the provider refuses, each with its code, and takes no refund for it", async () => {
    const { invoiceID, paymentID, invoiceToken } = await capturedPayment();
    const refused = async (body: Record<string, unknown>) => (await refund(invoiceID, paymentID, body)).data as unknown as { code: string };
    expect(await refused({ amount: 1501 })).toMatchObject({ code: 'invoicePaymentAmountExceeded' });
    expect(await refused({ amount: 100, currency: 'USD' })).toMatchObject({ code: 'inconsistentRefundCurrency' });
    expect(await refused({ amount: 100, cart: [{ product: 'Seat', price: 1000, quantity: 1 }] })).toMatchObject({ code: 'invalidRequest', message: 'Remaining payment amount not equal cart cost' });
    expect(await refused({ cart: CART })).toMatchObject({ code: 'invalidRequest' });
    expect(await refused({ amount: 100, cart: [], allocation: [] })).toMatchObject({ code: 'refundCartConflict' });
    expect(await refused({ amount: 100, cart: [] })).toMatchObject({ code: 'invalidInvoiceCart' });
    expect(await refused({ amount: 100, allocation: [{ amount: 100 }] })).toMatchObject({ code: 'allocationNotPermitted' });
    expect((await refund(invoiceID, '9', { amount: 1 })).status).toBe(404);
    expect((await refund(invoiceID, paymentID, { amount: 1 }, invoiceToken)).status).toBe(401);
    expect((await sandbox.call('GET', `${refundsPath(invoiceID, paymentID)}/100`)).status).toBe(404);

    // One refund of a payment at a time.
    await sandbox.control.setDelays({ refundMs: 60_000 });
    try {
      expect((await refund(invoiceID, paymentID, { amount: 100 })).status).toBe(201);
      expect(await refused({ amount: 100 })).toMatchObject({ code: 'operationNotPermitted' });
    } finally {
      await sandbox.control.setDelays({ refundMs: 5 });
    }
    expect((await sandbox.control.ledger()).refunds.map((r) => r.amount)).toEqual([100]);

    // A payment that was never captured cannot be refunded.
    const failed = await sandbox.readyCustomer(CARDS.renewalInsufficientFunds);
    const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
    const declined = await sandbox.pay(invoice.id, invoiceAccessToken.payload, failed.id);
    expect((await sandbox.finalPayment(invoice.id, declined.data.id)).status).toBe('failed');
    expect((await refund(invoice.id, declined.data.id, { amount: 1 })).data).toMatchObject({ code: 'invalidPaymentStatus' });
  });

  it('answers a repeat of the same externalID and body with the first refund as it is now; another body is a 409 naming it', async () => {
    const { invoiceID, paymentID } = await capturedPayment();
    const body = { externalID: 'rf-same', amount: 700, currency: 'RUB', cart: [{ ...CART[0], price: 150 }, CART[1]] };
    const first = await refund(invoiceID, paymentID, body);
    await finalRefund(invoiceID, paymentID, first.data.id);
    const again = await refund(invoiceID, paymentID, { ...body, reason: 'other' });
    expect(again.status).toBe(201);
    expect(again.data).toMatchObject({ id: first.data.id, status: 'succeeded' });
    const conflict = await refund(invoiceID, paymentID, { ...body, amount: 699 });
    expect(conflict).toMatchObject({ status: 409, data: { externalID: 'rf-same', id: first.data.id } });
    expect((await sandbox.call<Refund>('GET', '/v2/processing/refunds?externalID=rf-same')).data).toMatchObject({ id: first.data.id, amount: 700 });
    expect((await sandbox.call('GET', '/v2/processing/refunds?externalID=rf-none')).status).toBe(404);
    expect((await sandbox.control.ledger()).refunds).toHaveLength(1);

    // A refused request takes its id: repeated, it is checked again under that id; the next refund's id skips it.
    const tooMuch = { externalID: 'rf-too-much', amount: 801 };
    expect((await refund(invoiceID, paymentID, tooMuch)).data).toMatchObject({ code: 'invoicePaymentAmountExceeded' });
    expect((await refund(invoiceID, paymentID, tooMuch)).data).toMatchObject({ code: 'invoicePaymentAmountExceeded' });
    expect((await refund(invoiceID, paymentID, { ...tooMuch, amount: 800 })).data).toMatchObject({ externalID: 'rf-too-much', id: '101' });
    expect((await refund(invoiceID, paymentID, { amount: 800 })).data).toMatchObject({ id: '102', amount: 800 });
  });

  it('fails every refund of a card whose refunds the bank refuses, taking nothing from what remains', async () => {
    const { invoiceID, paymentID } = await capturedPayment(CARDS.refundsFail);
    const made = await refund(invoiceID, paymentID, { amount: 1500 });
    expect(await finalRefund(invoiceID, paymentID, made.data.id)).toMatchObject({
      status: 'failed',
      error: { code: 'authorization_failed', message: 'Refund rejected by the issuer' },
    });
    expect(await paymentStatus(invoiceID, paymentID)).toBe('captured');
    // The whole payment can still be asked for: the failed refund took nothing.
    expect((await refund(invoiceID, paymentID, { amount: 1500 })).status).toBe(201);
  });

  it('delivers RefundCreated, RefundSucceeded and PaymentRefunded to webhooks subscribed to them, under their delivered names', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const subscribe = async (eventTypes: string[]) =>
        (await sandbox.call<Webhook>('POST', '/v2/processing/webhooks', { body: { scope: { topic: 'InvoicesTopic', shopID: SANDBOX_SHOP_ID, eventTypes }, url: receiver.url } })).data;
      await subscribe(['PaymentRefundCreated', 'PaymentRefundSucceeded', 'PaymentRefundFailed', 'PaymentRefunded']);
      await subscribe(['PaymentCaptured']);
      const { invoiceID, paymentID } = await capturedPayment();
      const made = await refund(invoiceID, paymentID, { amount: 1500 });
      const types = ['RefundCreated', 'RefundSucceeded', 'PaymentRefunded'];
      const received = (await receiver.waitForTypes(types)).filter((r) => types.includes(r.json.eventType as string));
      expect(received.map((r) => r.json.eventType)).toEqual(['RefundCreated', 'RefundSucceeded', 'PaymentRefunded']);
      expect(received[1].json).toMatchObject({ topic: 'InvoicesTopic', invoice: { id: invoiceID, status: 'paid' }, payment: { id: paymentID }, refund: { id: made.data.id, status: 'succeeded', amount: 1500 } });
      expect(received[1].json.refund).not.toHaveProperty('externalID');
      expect(received[2].json.payment.status).toBe('refunded');
    } finally {
      await receiver.close();
    }
  });
});
