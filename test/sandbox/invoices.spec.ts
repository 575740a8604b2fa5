import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { invoiceParams, SandboxClient } from '../support/sandbox-client';
import { waitFor } from '../support/wait';
import { readInvoice, readInvoiceEvents, useSandbox } from './support/sandbox-suite';

describe('sandbox: invoices and customer-payer payments', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));
  const invoiceEvents = (invoiceID: string, query?: string) => readInvoiceEvents(sandbox, invoiceID, query);
  const getInvoice = (invoiceID: string) => readInvoice(sandbox, invoiceID);

  describe('invoice creation', () => {
    it('creates an unpaid invoice and an access token', async () => {
      const params = invoiceParams({ description: 'November', externalID: 'inv-ext-1' });
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice(params);
      expect(invoice).toEqual({
        id: expect.stringMatching(/^[0-9A-Za-z]{10}$/),
        shopID: SANDBOX_SHOP_ID,
        createdAt: expect.any(String),
        dueDate: params.dueDate,
        amount: 1500,
        currency: 'RUB',
        product: 'Monthly plan',
        description: 'November',
        metadata: { subscriptionId: 'sub-1' },
        externalID: 'inv-ext-1',
        status: 'unpaid',
      });
      expect(invoiceAccessToken.payload).toEqual(expect.any(String));
      expect(await getInvoice(invoice.id)).toEqual(invoice);
      const created = await invoiceEvents(invoice.id);
      expect(created).toEqual([{ id: 1, createdAt: expect.any(String), changes: [{ changeType: 'InvoiceCreated', invoice }] }]);
    });

    it('takes the amount from the cart and echoes each line with its cost', async () => {
      const cart = [
        { product: 'Seat', price: 500, quantity: 3, taxMode: { type: 'InvoiceLineTaxVAT', rate: '20%' } },
        { product: 'Setup', price: 250 },
      ];
      const { invoice } = await sandbox.createInvoice({ amount: undefined, cart });
      expect(invoice.amount).toBe(1750);
      expect(invoice.cart).toEqual([
        { product: 'Seat', price: 500, quantity: 3, cost: 1500, taxMode: { type: 'InvoiceLineTaxVAT', rate: '20%' } },
        { product: 'Setup', price: 250, quantity: 1, cost: 250 },
      ]);
    });

    it.each([
      [{ amount: 1000, cart: [{ product: 'A', price: 300, quantity: 2 }] }, { code: 'invalidInvoiceCost', message: 'Invalid invoice amount' }],
      [{ amount: undefined }, { code: 'invalidInvoiceCost', message: 'Invalid invoice amount' }],
      [{ cart: [] }, { code: 'invalidInvoiceCart', message: 'Wrong size. Path to item: cart' }],
      [{ amount: undefined, cart: Array.from({ length: 101 }, () => ({ product: 'A', price: 1 })) }, { code: 'invalidInvoiceCart', message: 'Wrong size. Path to item: cart' }],
      [{ dueDate: new Date(Date.now() - 60_000).toISOString() }, { code: 'invalidRequest', message: 'Invalid due date' }],
    ])('rejects %j with %j', async (overrides, error) => {
      const res = await sandbox.call('POST', '/v2/processing/invoices', { body: invoiceParams(overrides) });
      expect(res.status).toBe(400);
      expect(res.data).toEqual(error);
    });

    it.each([
      [{ amount: 0 }, 'amount: must be at least 1'],
      [{ amount: 10.5 }, 'amount: must be an integer'],
      [{ currency: 'rub' }, 'currency: must match'],
      [{ dueDate: 'tomorrow' }, 'dueDate: must match'],
      [{ product: 'x'.repeat(101) }, 'product: must be at most 100'],
      [{ metadata: undefined }, 'metadata: is required'],
      [{ cart: [{ product: 'A', price: 1, taxMode: { type: 'InvoiceLineTaxVAT', rate: '13%' } }], amount: 1 }, 'cart[0].taxMode.rate: must be one of'],
      [{ cart: [{ product: 'A', price: 1, quantity: 0 }], amount: 1 }, 'cart[0].quantity: must be at least 1'],
    ])('rejects the invalid field %j with invalidRequest', async (overrides, detail) => {
      const res = await sandbox.call<{ code: string; message: string }>('POST', '/v2/processing/invoices', { body: invoiceParams(overrides) });
      expect(res.status).toBe(400);
      expect(res.data.code).toBe('invalidRequest');
      expect(res.data.message).toContain(`Request parameter: InvoiceParams, error type: schema_violated, description: ${detail}`);
    });

    it('answers an unknown invoice with 404 "Invoice not found"', async () => {
      const res = await sandbox.call('GET', '/v2/processing/invoices/nope');
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ message: 'Invoice not found' });
    });

    it('returns the existing invoice with a fresh token for a repeat, and 409 for other features', async () => {
      const dueDate = new Date(Date.now() + 3600_000).toISOString();
      const first = await sandbox.createInvoice({ externalID: 'inv-1', dueDate });
      const again = await sandbox.createInvoice({ externalID: 'inv-1', dueDate, metadata: { other: true }, description: 'not a feature' });
      expect(again.invoice.id).toBe(first.invoice.id);
      expect(again.invoiceAccessToken.payload).not.toBe(first.invoiceAccessToken.payload);
      const conflict = await sandbox.call('POST', '/v2/processing/invoices', { body: invoiceParams({ externalID: 'inv-1', dueDate, amount: 999 }) });
      expect(conflict.status).toBe(409);
      expect(conflict.data).toEqual({ externalID: 'inv-1', id: first.invoice.id, message: "This 'externalID' has been used by another request" });
    });

    it('cancels an unpaid invoice once its due date has passed', async () => {
      const customer = await sandbox.readyCustomer();
      // Due soon, but later than a busy machine takes to create it (a due date already past is refused).
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice({ dueDate: new Date(Date.now() + 3_000).toISOString() });
      // Each read looks at the invoice: the first one after its due date cancels it.
      const read = await waitFor(() => getInvoice(invoice.id), (i) => i.status !== 'unpaid', { everyMs: 200, what: 'the invoice no longer unpaid' });
      expect(read.status).toBe('cancelled');
      expect(read.reason).toBe('overdue');
      expect((await invoiceEvents(invoice.id)).at(-1)?.changes).toEqual([{ changeType: 'InvoiceStatusChanged', status: 'cancelled' }]);
      const pay = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(pay.status).toBe(400);
      expect(pay.data).toEqual({ code: 'invalidInvoiceStatus', message: 'Invalid invoice status' });
    });
  });
});
