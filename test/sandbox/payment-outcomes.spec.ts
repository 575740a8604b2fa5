import type { Payment } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { readInvoiceEvents, useSandbox } from './support/sandbox-suite';

describe('sandbox: invoices and customer-payer payments', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));
  const invoiceEvents = (invoiceID: string, query?: string) => readInvoiceEvents(sandbox, invoiceID, query);

  describe('payer checks', () => {
    it.each([
      ['a customer whose binding failed', CARDS.insufficientFunds, 'Specified customer is not ready'],
      ['a customer with no binding', undefined, 'Specified customer is not ready'],
    ])('refuses %s', async (_label, pan, message) => {
      const { customer } = await sandbox.createCustomer();
      if (pan) await sandbox.bindCard(customer.id, pan);
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const res = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message });
    });

    it('refuses an unknown customer and a customer of another shop', async () => {
      const foreign = await sandbox.readyCustomer(CARDS.success, { shopID: 'shop-2' });
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const unknown = await sandbox.pay(invoice.id, invoiceAccessToken.payload, 'nobody');
      expect(unknown.data).toEqual({ code: 'invalidRequest', message: 'Customer not found' });
      const other = await sandbox.pay(invoice.id, invoiceAccessToken.payload, foreign.id);
      expect(other.status).toBe(400);
      expect(other.data).toEqual({ code: 'invalidRequest', message: 'Invalid customer' });
    });

    it.each([
      [{ flow: { type: 'PaymentFlowHold' }, payer: { payerType: 'CustomerPayer', customerID: 'c' } }, 'flow.type: must be one of PaymentFlowInstant'],
      [{ flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'PaymentResourcePayer', customerID: 'c' } }, 'payer.payerType: must be one of CustomerPayer'],
      [{ flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer' } }, 'payer.customerID: is required'],
      [{ payer: { payerType: 'CustomerPayer', customerID: 'c' } }, 'flow: is required'],
    ])('rejects the payment body %j', async (body, detail) => {
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const res = await sandbox.call<{ code: string; message: string }>('POST', `/v1/processing/invoices/${invoice.id}/payments`, { token: invoiceAccessToken.payload, body });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message: `Request parameter: PaymentParams, error type: schema_violated, description: ${detail}` });
    });
  });

  describe('payment outcomes by card and by script', () => {
    it.each([
      ['4242424242424242'],
      ['5555555555554444'],
      ['586824160825533338'],
      ['2201382000000013'],
      ['4012888888881881'],
      ['4556418324571052'],
      ['4929172190150505'],
      ['2222990905257051'],
    ])('captures a charge of a customer bound with %s', async (pan) => {
      const customer = await sandbox.readyCustomer(pan);
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect((await sandbox.finalPayment(invoice.id, '1')).status).toBe('captured');
    });

    it.each([
      ['authorization_failed:insufficient_funds', { code: 'authorization_failed', subError: { code: 'insufficient_funds' } }, 'InsufficientFunds'],
      ['authorization_failed:account_not_found', { code: 'authorization_failed', subError: { code: 'account_not_found' } }, 'InvalidPaymentTool'],
      [
        'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired',
        { code: 'authorization_failed', subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } } },
        'InvalidPaymentTool',
      ],
      ['preauthorization_failed:unknown', { code: 'preauthorization_failed', subError: { code: 'unknown' } }, 'PreauthorizationFailed'],
      ['authorization_failed:unknown', { code: 'authorization_failed', subError: { code: 'unknown' } }, 'PaymentRejected'],
    ])('fails a scripted %s: the merchant sees the tree, the payer the flat code', async (outcome, tree, flat) => {
      const customer = await sandbox.readyCustomer();
      await sandbox.control.scriptOutcomes(customer.id, [outcome]);
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      const merchantView = await sandbox.finalPayment(invoice.id, '1');
      expect(merchantView.status).toBe('failed');
      expect(merchantView.error).toEqual(tree);
      const payerView = await sandbox.call<Payment>('GET', `/v2/processing/invoices/${invoice.id}/payments/1`, { token: invoiceAccessToken.payload });
      expect(payerView.data.error).toEqual({ code: flat });
      const lastEvent = (await invoiceEvents(invoice.id)).at(-1);
      expect(lastEvent?.changes).toEqual([{ changeType: 'PaymentStatusChanged', paymentID: '1', status: 'failed', error: tree }]);
    });

    it('consumes scripted outcomes in order, then the card decides again', async () => {
      const customer = await sandbox.readyCustomer(CARDS.success);
      await sandbox.control.scriptOutcomes(customer.id, ['authorization_failed:insufficient_funds', 'success', 'authorization_failed:unknown']);
      const statuses: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
        await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
        statuses.push((await sandbox.finalPayment(invoice.id, '1')).status);
      }
      expect(statuses).toEqual(['failed', 'captured', 'failed', 'captured']);
    });

    it('validates scripted outcomes', async () => {
      const customer = await sandbox.readyCustomer();
      expect((await sandbox.control.send('POST', 'outcomes', { customerID: customer.id, outcomes: ['declined!'] })).status).toBe(400);
      expect((await sandbox.control.send('POST', 'outcomes', { customerID: 'nobody', outcomes: ['success'] })).status).toBe(404);
    });
  });
});
