import type { Invoice, InvoiceAndToken, InvoiceEvent, Payment } from '../../src/gateway/provider-api.types';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { invoiceParams, SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { sleep } from '../support/wait';

describe('sandbox: invoices and customer-payer payments', () => {
  let sandbox: SandboxClient;

  beforeAll(async () => {
    sandbox = await SandboxClient.start();
  });
  afterAll(() => sandbox.close());
  beforeEach(() => sandbox.control.reset());

  async function invoiceEvents(invoiceID: string, query = 'limit=100'): Promise<InvoiceEvent[]> {
    const res = await sandbox.call<InvoiceEvent[]>('GET', `/v2/processing/invoices/${invoiceID}/events?${query}`);
    expect(res.status).toBe(200);
    return res.data;
  }

  async function getInvoice(invoiceID: string): Promise<Invoice> {
    return (await sandbox.call<Invoice>('GET', `/v2/processing/invoices/${invoiceID}`)).data;
  }

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
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice({ dueDate: new Date(Date.now() + 300).toISOString() });
      await sleep(400);
      const read = await getInvoice(invoice.id);
      expect(read.status).toBe('cancelled');
      expect(read.reason).toBe('overdue');
      expect((await invoiceEvents(invoice.id)).at(-1)?.changes).toEqual([{ changeType: 'InvoiceStatusChanged', status: 'cancelled' }]);
      const pay = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(pay.status).toBe(400);
      expect(pay.data).toEqual({ code: 'invalidInvoiceStatus', message: 'Invalid invoice status' });
    });
  });

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
