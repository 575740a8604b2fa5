import type { InvoiceAndToken } from '../../src/gateway/provider-api.types';
import { SANDBOX_API_KEY } from '../../src/config/load-config';
import { invoiceParams, SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { useSandbox } from './support/sandbox-suite';

describe('sandbox: invoices and customer-payer payments', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  describe('credentials of payment creation', () => {
    let customerID: string;
    let target: InvoiceAndToken;
    beforeEach(async () => {
      customerID = (await sandbox.readyCustomer()).id;
      target = await sandbox.createInvoice();
    });

    it.each([
      ['the API key', () => SANDBOX_API_KEY],
      ['no credential at all', () => null],
      ['an unknown token', () => 'made-up-token'],
    ])('answers 401 with an empty body to %s', async (_label, token) => {
      const res = await sandbox.pay(target.invoice.id, token() as string, customerID);
      expect(res.status).toBe(401);
      expect(res.data).toBe('');
      expect((await sandbox.control.ledger()).payments).toEqual([]);
    });

    it("answers 401 to another invoice's token", async () => {
      const other = await sandbox.createInvoice();
      const res = await sandbox.pay(target.invoice.id, other.invoiceAccessToken.payload, customerID);
      expect(res.status).toBe(401);
      expect(res.data).toBe('');
    });

    it('answers 401 to an expired token and accepts a renewed one', async () => {
      expect((await sandbox.control.send('POST', 'expire-tokens')).status).toBe(204);
      const expired = await sandbox.pay(target.invoice.id, target.invoiceAccessToken.payload, customerID);
      expect(expired.status).toBe(401);
      const renewed = await sandbox.call<{ payload: string }>('POST', `/v2/processing/invoices/${target.invoice.id}/access-tokens`);
      expect(renewed.status).toBe(201);
      const paid = await sandbox.pay(target.invoice.id, renewed.data.payload, customerID);
      expect(paid.status).toBe(201);
    });

    it('lets the invoice token read its own invoice, but not another one', async () => {
      const other = await sandbox.createInvoice();
      const token = target.invoiceAccessToken.payload;
      expect((await sandbox.call('GET', `/v2/processing/invoices/${target.invoice.id}`, { token })).status).toBe(200);
      expect((await sandbox.call('GET', `/v2/processing/invoices/${other.invoice.id}`, { token })).status).toBe(401);
      expect((await sandbox.call('POST', '/v2/processing/invoices', { token, body: invoiceParams() })).status).toBe(401);
    });
  });

  describe('payment externalID idempotency', () => {
    it('returns the existing payment with its current status for a repeat', async () => {
      const customer = await sandbox.readyCustomer();
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      const first = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id, { externalID: 'charge-1' });
      await sandbox.finalPayment(invoice.id, first.data.id);
      // The invoice is paid by now; a retry must still get the payment, not invalidInvoiceStatus.
      const again = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id, { externalID: 'charge-1', metadata: { retry: true } });
      expect(again.status).toBe(201);
      expect(again.data).toMatchObject({ id: first.data.id, status: 'captured' });
      expect((await sandbox.control.ledger()).payments).toHaveLength(1);
    });

    it('answers 409 when the externalID was used with another payer or on another invoice', async () => {
      const customer = await sandbox.readyCustomer();
      const otherCustomer = await sandbox.readyCustomer(CARDS.secondSuccess);
      const a = await sandbox.createInvoice();
      const b = await sandbox.createInvoice();
      await sandbox.control.setDelays({ paymentMs: 300 });
      try {
        const first = await sandbox.pay(a.invoice.id, a.invoiceAccessToken.payload, customer.id, { externalID: 'charge-2' });
        const otherPayer = await sandbox.pay(a.invoice.id, a.invoiceAccessToken.payload, otherCustomer.id, { externalID: 'charge-2' });
        expect(otherPayer.status).toBe(409);
        expect(otherPayer.data).toEqual({ externalID: 'charge-2', id: first.data.id, message: "This 'externalID' has been used by another request" });
        const otherInvoice = await sandbox.pay(b.invoice.id, b.invoiceAccessToken.payload, customer.id, { externalID: 'charge-2' });
        expect(otherInvoice.status).toBe(409);
      } finally {
        await sandbox.control.setDelays({ paymentMs: 5 });
      }
    });
  });
});
