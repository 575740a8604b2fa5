import type { Payment } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { readInvoice, readInvoiceEvents, useSandbox } from './support/sandbox-suite';

describe('sandbox: invoices and customer-payer payments', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));
  const invoiceEvents = (invoiceID: string, query?: string) => readInvoiceEvents(sandbox, invoiceID, query);
  const getInvoice = (invoiceID: string) => readInvoice(sandbox, invoiceID);

  describe('payment lifecycle', () => {
    it('captures a payment of a ready customer: pending → captured, invoice unpaid → paid', async () => {
      const customer = await sandbox.readyCustomer(CARDS.success);
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice({ externalID: 'inv-77', metadata: { subscriptionId: 'sub-9', period: '2026-11' } });
      const res = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id, { externalID: 'pay-77', metadata: { attempt: 1 } });
      expect(res.status).toBe(201);
      expect(res.data).toMatchObject({
        id: '1',
        invoiceID: invoice.id,
        amount: 1500,
        currency: 'RUB',
        flow: { type: 'PaymentFlowInstant' },
        payer: { payerType: 'CustomerPayer', customerID: customer.id, paymentToolDetails: { lastDigits: '4242' } },
        externalID: 'pay-77',
        metadata: { attempt: 1 },
        status: 'pending',
      });

      const final = await sandbox.finalPayment(invoice.id, '1');
      expect(final.status).toBe('captured');
      expect(final.error).toBeUndefined();
      expect((await getInvoice(invoice.id)).status).toBe('paid');

      const stream = await invoiceEvents(invoice.id);
      expect(stream.map((e) => e.id)).toEqual([1, 2, 3, 4]);
      expect(stream.map((e) => e.changes)).toEqual([
        [expect.objectContaining({ changeType: 'InvoiceCreated' })],
        [{ changeType: 'PaymentStarted', payment: expect.objectContaining({ id: '1', status: 'pending' }) }],
        [{ changeType: 'PaymentStatusChanged', paymentID: '1', status: 'processed' }],
        [
          { changeType: 'PaymentStatusChanged', paymentID: '1', status: 'captured' },
          { changeType: 'InvoiceStatusChanged', status: 'paid' },
        ],
      ]);
      expect((await invoiceEvents(invoice.id, 'limit=1&eventID=2')).map((e) => e.id)).toEqual([3]);

      const ledger = await sandbox.control.ledger();
      expect(ledger.payments).toEqual([
        {
          invoiceID: invoice.id,
          paymentID: '1',
          customerID: customer.id,
          amount: 1500,
          currency: 'RUB',
          status: 'captured',
          externalID: 'pay-77',
          invoiceExternalID: 'inv-77',
          invoiceMetadata: { subscriptionId: 'sub-9', period: '2026-11' },
          createdAt: res.data.createdAt,
          capturedAt: expect.any(String),
        },
      ]);
    });

    it('accepts the same payment at the v2 path', async () => {
      const customer = await sandbox.readyCustomer();
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const res = await sandbox.call<Payment>('POST', `/v2/processing/invoices/${invoice.id}/payments`, {
        token: invoiceAccessToken.payload,
        body: { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID: customer.id } },
      });
      expect(res.status).toBe(201);
      expect((await sandbox.finalPayment(invoice.id, res.data.id)).status).toBe('captured');
    });

    it('allows one pending payment per invoice at a time; the invoice stays unpaid meanwhile', async () => {
      await sandbox.control.setDelays({ paymentMs: 300 });
      try {
        const customer = await sandbox.readyCustomer();
        const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
        expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).status).toBe(201);
        const second = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
        expect(second.status).toBe(400);
        expect(second.data).toEqual({ code: 'invoicePaymentPending', message: 'Invoice payment pending' });
        expect((await getInvoice(invoice.id)).status).toBe('unpaid');
        expect((await sandbox.finalPayment(invoice.id, '1')).status).toBe('captured');
        expect((await getInvoice(invoice.id)).status).toBe('paid');
      } finally {
        await sandbox.control.setDelays({ paymentMs: 5 });
      }
    });

    it('with captureMs, shows the payment processed (invoice still unpaid) before it is captured', async () => {
      await sandbox.control.setDelays({ paymentMs: 5, captureMs: 60_000 });
      try {
        const customer = await sandbox.readyCustomer();
        const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
        expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).status).toBe(201);
        await waitFor(
          async () => (await sandbox.call<Payment>('GET', `/v2/processing/invoices/${invoice.id}/payments/1`)).data,
          (p) => p.status === 'processed',
          { everyMs: 5, what: 'the payment processed' },
        );
        expect((await getInvoice(invoice.id)).status).toBe('unpaid');
        expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).status).toBe(400);
      } finally {
        await sandbox.control.setDelays({ paymentMs: 5, captureMs: 0 });
      }
    });

    it('with captureMs, captures the processed payment that long after', async () => {
      await sandbox.control.setDelays({ paymentMs: 5, captureMs: 20 });
      try {
        const customer = await sandbox.readyCustomer();
        const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
        expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).status).toBe(201);
        expect((await sandbox.finalPayment(invoice.id, '1')).status).toBe('captured');
        expect((await getInvoice(invoice.id)).status).toBe('paid');
      } finally {
        await sandbox.control.setDelays({ paymentMs: 5, captureMs: 0 });
      }
    });

    it('refuses a payment on a paid invoice', async () => {
      const customer = await sandbox.readyCustomer();
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      await sandbox.finalPayment(invoice.id, '1');
      const again = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(again.status).toBe(400);
      expect(again.data).toEqual({ code: 'invalidInvoiceStatus', message: 'Invalid invoice status' });
    });

    it('numbers payments per invoice and leaves the invoice open after a failure', async () => {
      const customer = await sandbox.readyCustomer();
      await sandbox.control.scriptOutcomes(customer.id, ['authorization_failed:insufficient_funds']);
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).data.id).toBe('1');
      expect((await sandbox.finalPayment(invoice.id, '1')).status).toBe('failed');
      expect((await getInvoice(invoice.id)).status).toBe('unpaid');
      expect((await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id)).data.id).toBe('2');
      expect((await sandbox.finalPayment(invoice.id, '2')).status).toBe('captured');
      const list = await sandbox.call<Payment[]>('GET', `/v2/processing/invoices/${invoice.id}/payments`);
      expect(list.data.map((p) => [p.id, p.status])).toEqual([
        ['1', 'failed'],
        ['2', 'captured'],
      ]);
      expect((await sandbox.control.ledger()).payments.map((p) => [p.paymentID, p.status])).toEqual([
        ['1', 'failed'],
        ['2', 'captured'],
      ]);
    });

    it('answers an unknown payment with 404 "Payment not found"', async () => {
      const { invoice } = await sandbox.createInvoice();
      const res = await sandbox.call('GET', `/v2/processing/invoices/${invoice.id}/payments/1`);
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ message: 'Payment not found' });
    });

    it('charges with the newest succeeded binding', async () => {
      const customer = await sandbox.readyCustomer(CARDS.success);
      expect((await sandbox.bindCard(customer.id, CARDS.secondSuccess)).status).toBe('succeeded');
      expect((await sandbox.bindCard(customer.id, CARDS.insufficientFunds)).status).toBe('failed');
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const res = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(res.data.payer).toMatchObject({ paymentToolDetails: { lastDigits: '4444', paymentSystem: 'mastercard' } });
      expect((await sandbox.finalPayment(invoice.id, '1')).status).toBe('captured');
    });
  });
});
