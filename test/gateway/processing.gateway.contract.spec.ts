import { failureCodePath } from '../../src/gateway/failure-code';
import type { SandboxControl } from '../support/sandbox-control';
import { CARD_EXP_DATE, CARDS } from '../support/test-cards';
import { confirmThreeDs, redirectOf } from '../support/three-ds-payer';
import { waitFor } from '../support/wait';
import { caught, Harness, SANDBOX_KEY, useGatewaySandbox } from './support/gateway-harness';
import { createBinding, createCustomer, createInvoice, createPaymentResource, externalId, payInvoice, readyCustomer, SHOP_ID, tomorrow } from './support/operation-cases';

describe('ProcessingGateway against the sandbox (customers, bindings, invoices, payments)', () => {
  let control: SandboxControl;
  let gw: Harness;
  useGatewaySandbox((started) => ({ control, gw } = started));

  describe('customers and bindings', () => {
    it('creates an unready customer with an access token for the hosted form', async () => {
      const extId = externalId('cus');
      const created = await createCustomer(gw, extId);
      expect(created.customer).toMatchObject({
        id: expect.any(String),
        shopID: SHOP_ID,
        status: 'unready',
        contactInfo: { email: 'payer@example.com', phoneNumber: '+79991234567' },
        metadata: { ref: 'contract' },
      });
      expect(created.customerAccessToken.payload).toEqual(expect.any(String));
      expect(await gw.processing.getCustomer(created.customer.id)).toMatchObject({ id: created.customer.id, status: 'unready' });
    });

    it('issues a new customer access token for a known customer, and reports an unknown one as not_found', async () => {
      const created = await createCustomer(gw);
      const renewed = await gw.processing.createCustomerAccessToken(created.customer.id);
      expect(renewed.payload).toEqual(expect.any(String));
      expect(renewed.payload).not.toBe(created.customerAccessToken.payload);
      const [logged] = (await control.requests('createCustomerAccessToken')).slice(-1);
      expect([logged.method, logged.path]).toEqual(['POST', `/v2/processing/customers/${created.customer.id}/access-tokens`]);
      const error = await caught(gw.processing.createCustomerAccessToken('no-such-customer'));
      expect([error.kind, error.providerMessage]).toEqual(['not_found', 'Customer not found']);
    });

    it('tokenizes a card into a token, a session and masked card details', async () => {
      const resource = await createPaymentResource(gw, CARDS.success);
      expect(resource).toMatchObject({
        paymentToolToken: expect.any(String),
        paymentSession: expect.any(String),
        clientInfo: { fingerprint: 'contract-test-fingerprint' },
        paymentToolDetails: { detailsType: 'PaymentToolDetailsBankCard', bin: '424242', lastDigits: '4242', paymentSystem: 'visa' },
      });
      expect(resource.paymentToolDetails.cardNumberMask).not.toContain('42424242424242');
    });

    it('binds a card: the binding succeeds, the events tell it, and the customer becomes ready', async () => {
      const { customer, binding } = await createBinding(gw, CARDS.success);
      expect(binding).toMatchObject({ id: expect.any(String), status: expect.stringMatching(/^(pending|succeeded)$/) });
      expect(binding.paymentResource.paymentToolToken).toEqual(expect.any(String));
      const done = await waitFor(() => gw.processing.getBinding(customer.id, binding.id), (b) => b.status !== 'pending');
      expect(done.status).toBe('succeeded');
      expect((await gw.processing.getCustomer(customer.id)).status).toBe('ready');

      const events = await gw.processing.getCustomerEvents(customer.id, { limit: 100 });
      const changes = events.flatMap((e) => e.changes);
      expect(changes).toContainEqual(expect.objectContaining({ changeType: 'CustomerBindingStarted' }));
      expect(changes).toContainEqual(expect.objectContaining({ changeType: 'CustomerBindingStatusChanged', customerBindingID: binding.id, status: 'succeeded' }));
      for (const event of events) expect(event).toMatchObject({ id: expect.any(Number), createdAt: expect.any(String) });
    });

    it('pages customer events: limit caps the page, eventID returns only later events', async () => {
      const { customer, binding } = await createBinding(gw, CARDS.success);
      await waitFor(() => gw.processing.getBinding(customer.id, binding.id), (b) => b.status === 'succeeded');
      const all = await gw.processing.getCustomerEvents(customer.id, { limit: 100 });
      expect(all.length).toBeGreaterThanOrEqual(2);
      expect(await gw.processing.getCustomerEvents(customer.id, { limit: 1 })).toEqual([all[0]]);
      expect(await gw.processing.getCustomerEvents(customer.id, { limit: 100, eventID: all[0].id })).toEqual(all.slice(1));
    });

    it.each([
      [CARDS.threeDsFailure, 'preauthorization_failed'],
      [CARDS.insufficientFunds, 'authorization_failed'],
      [CARDS.expired, 'authorization_failed'],
      [CARDS.invalid, 'authorization_failed'],
    ])('reports a failed binding on test card %s with code %s, and the customer stays unready', async (card, code) => {
      const { customer, binding } = await createBinding(gw, card);
      // A 3-D Secure card waits for the payer: the redirect is in the events, and the payer confirms at the ACS.
      const asked = (await gw.processing.getCustomerEvents(customer.id, { limit: 100 }))
        .flatMap((e) => e.changes)
        .find((c) => c.changeType === 'CustomerBindingInteractionRequested' && c.customerBindingID === binding.id);
      if (card === CARDS.threeDsFailure) expect(asked).toBeDefined();
      if (asked?.changeType === 'CustomerBindingInteractionRequested') await confirmThreeDs(redirectOf(asked.userInteraction));
      const done = await waitFor(() => gw.processing.getBinding(customer.id, binding.id), (b) => b.status !== 'pending');
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({ code, message: expect.any(String) });
      expect((await gw.processing.getCustomer(customer.id)).status).toBe('unready');
    });

    it('answers a repeated createBinding with the same externalID with the same binding, charging the card once', async () => {
      const { customer } = await createCustomer(gw);
      const resource = await createPaymentResource(gw);
      const params = { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession }, externalID: externalId('bnd') };
      const first = await gw.processing.createBinding(customer.id, params);
      const second = await gw.processing.createBinding(customer.id, params);
      expect(second.id).toBe(first.id);
      await waitFor(() => gw.processing.getBinding(customer.id, first.id), (b) => b.status === 'succeeded');
      expect((await control.ledger()).bindingCharges).toHaveLength(1);
    });

    it('refuses a binding with a bad payment tool token as invalid_request with a code', async () => {
      const { customer } = await createCustomer(gw);
      const error = await caught(gw.processing.createBinding(customer.id, { paymentResource: { paymentToolToken: 'forged', paymentSession: 'forged' }, externalID: externalId('bnd') }));
      expect(error.kind).toBe('invalid_request');
      expect(error.code).toEqual(expect.any(String));
      expect(error.message).toContain(error.code);
    });

    it('refuses a card with a bad checksum or a past expiry as invalid_request with the provider message', async () => {
      const checksum = await caught(
        gw.processing.createPaymentResource({
          paymentTool: { paymentToolType: 'CardData', cardNumber: CARDS.badChecksum, expDate: CARD_EXP_DATE, cvv: '123', cardHolder: 'JOHN DOE' },
          clientInfo: { fingerprint: 'fp' },
        }),
      );
      expect([checksum.kind, checksum.httpStatus, checksum.code]).toEqual(['invalid_request', 400, 'invalidRequest']);
      expect(checksum.providerMessage).toEqual(expect.any(String));
      const expired = await caught(
        gw.processing.createPaymentResource({
          paymentTool: { paymentToolType: 'CardData', cardNumber: CARDS.success, expDate: '01/20', cvv: '123', cardHolder: 'JOHN DOE' },
          clientInfo: { fingerprint: 'fp' },
        }),
      );
      expect([expired.kind, expired.code]).toEqual(['invalid_request', 'invalidRequest']);
    });

    it('reports unknown customers and bindings as not_found', async () => {
      expect((await caught(gw.processing.getCustomer('no-such-customer'))).kind).toBe('not_found');
      const { customer } = await createCustomer(gw);
      expect((await caught(gw.processing.getBinding(customer.id, 'no-such-binding'))).kind).toBe('not_found');
      expect((await caught(gw.processing.getCustomerEvents('no-such-customer', { limit: 10 }))).kind).toBe('not_found');
      const resource = await createPaymentResource(gw);
      const error = await caught(
        gw.processing.createBinding('no-such-customer', { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } }),
      );
      expect([error.kind, error.httpStatus]).toEqual(['not_found', 404]);
      expect(error.providerMessage).toEqual(expect.stringMatching(/not found/i));
    });

    it('reports an externalID reused with other parameters as conflict, naming the existing customer', async () => {
      const extId = externalId('cus');
      const first = await createCustomer(gw, extId);
      const error = await caught(gw.processing.createCustomer({ shopID: SHOP_ID, contactInfo: { email: 'other@example.com' }, metadata: {}, externalID: extId }));
      expect(error).toMatchObject({ kind: 'conflict', httpStatus: 409, externalID: extId, conflictingId: first.customer.id });
      expect(error.isDefinitelyNotApplied).toBe(true);
    });
  });

  describe('invoices and payments', () => {
    it('creates an unpaid invoice with an access token, and reads it back', async () => {
      const extId = externalId('inv');
      const created = await createInvoice(gw, 1_500, extId);
      expect(created.invoice).toMatchObject({ id: expect.any(String), shopID: SHOP_ID, amount: 1_500, currency: 'RUB', status: 'unpaid', product: 'Gold plan, monthly' });
      expect(created.invoiceAccessToken.payload).toEqual(expect.any(String));
      expect(await gw.processing.getInvoice(created.invoice.id)).toMatchObject({ id: created.invoice.id, amount: 1_500, status: 'unpaid', createdAt: expect.any(String) });
    });

    it('answers a repeated createInvoice with the same externalID with the same invoice', async () => {
      const extId = externalId('inv');
      const dueDate = tomorrow();
      const first = await createInvoice(gw, 1_000, extId, dueDate);
      const second = await createInvoice(gw, 1_000, extId, dueDate);
      expect(second.invoice.id).toBe(first.invoice.id);
      expect(second.invoiceAccessToken.payload).toEqual(expect.any(String));
    });

    it('reports an invoice externalID reused with another amount as conflict', async () => {
      const extId = externalId('inv');
      const first = await createInvoice(gw, 1_000, extId);
      const error = await caught(createInvoice(gw, 2_000, extId));
      expect(error).toMatchObject({ kind: 'conflict', externalID: extId, conflictingId: first.invoice.id });
    });

    it('refuses an invalid invoice as invalid_request with the provider code', async () => {
      const error = await caught(
        gw.processing.createInvoice({ shopID: 'no-such-shop', dueDate: new Date(Date.now() + 86_400_000).toISOString(), amount: 100, currency: 'RUB', product: 'x', metadata: {}, externalID: externalId('inv') }),
      );
      expect([error.kind, error.httpStatus, error.code]).toEqual(['invalid_request', 400, 'invalidShopID']);
      expect(error.message).toContain('[invalidShopID]');
    });

    it('mints a fresh invoice access token that can pay the invoice', async () => {
      const customer = await readyCustomer(gw);
      const { invoice } = await createInvoice(gw);
      const token = await gw.processing.createInvoiceAccessToken(invoice.id);
      expect(token.payload).toEqual(expect.any(String));
      const payment = await gw.processing.createPayment(invoice.id, token.payload, {
        flow: { type: 'PaymentFlowInstant' },
        payer: { payerType: 'CustomerPayer', customerID: customer.id },
        externalID: externalId('pay'),
      });
      expect(payment.invoiceID).toBe(invoice.id);
    });

    it('charges a bound customer: the payment is captured once, the invoice paid, the events tell it', async () => {
      const { invoice, payment, customer } = await payInvoice(gw, CARDS.success);
      expect(payment).toMatchObject({
        id: expect.any(String),
        invoiceID: invoice.invoice.id,
        amount: 1_000,
        currency: 'RUB',
        flow: { type: 'PaymentFlowInstant' },
        payer: { payerType: 'CustomerPayer', customerID: customer.id },
      });
      const captured = await waitFor(() => gw.processing.getPayment(invoice.invoice.id, payment.id), (p) => p.status === 'captured' || p.status === 'failed');
      expect(captured.status).toBe('captured');
      expect((await gw.processing.getInvoice(invoice.invoice.id)).status).toBe('paid');

      const changes = (await gw.processing.getInvoiceEvents(invoice.invoice.id, { limit: 100 })).flatMap((e) => e.changes);
      expect(changes).toContainEqual(expect.objectContaining({ changeType: 'PaymentStarted' }));
      expect(changes).toContainEqual(expect.objectContaining({ changeType: 'PaymentStatusChanged', paymentID: payment.id, status: 'captured' }));
      expect(changes).toContainEqual(expect.objectContaining({ changeType: 'InvoiceStatusChanged', status: 'paid' }));

      const ledger = await control.ledger();
      expect(ledger.payments).toEqual([expect.objectContaining({ invoiceID: invoice.invoice.id, paymentID: payment.id, customerID: customer.id, amount: 1_000, status: 'captured' })]);
    });

    it.each([
      ['authorization_failed:insufficient_funds'],
      ['authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired'],
    ])('reports a declined charge with its full failure code %s (read with the API key)', async (code) => {
      const customer = await readyCustomer(gw);
      await control.scriptOutcomes(customer.id, [code]);
      const { invoice, invoiceAccessToken } = await createInvoice(gw);
      const payment = await gw.processing.createPayment(invoice.id, invoiceAccessToken.payload, {
        flow: { type: 'PaymentFlowInstant' },
        payer: { payerType: 'CustomerPayer', customerID: customer.id },
        externalID: externalId('pay'),
      });
      const failed = await waitFor(() => gw.processing.getPayment(invoice.id, payment.id), (p) => p.status === 'captured' || p.status === 'failed');
      expect(failed.status).toBe('failed');
      expect(failureCodePath(failed.error)).toBe(code);
      expect((await gw.processing.getInvoice(invoice.id)).status).toBe('unpaid');
      const changes = (await gw.processing.getInvoiceEvents(invoice.id, { limit: 100 })).flatMap((e) => e.changes);
      const change = changes.find((c) => c.changeType === 'PaymentStatusChanged' && c.status === 'failed');
      expect(change && change.changeType === 'PaymentStatusChanged' ? failureCodePath(change.error) : undefined).toBe(code);
    });

    it('follows scripted outcomes: a decline, then a successful retry on a new invoice', async () => {
      const customer = await readyCustomer(gw);
      await control.scriptOutcomes(customer.id, ['authorization_failed:insufficient_funds', 'success']);
      const statuses: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { invoice, invoiceAccessToken } = await createInvoice(gw);
        const payment = await gw.processing.createPayment(invoice.id, invoiceAccessToken.payload, {
          flow: { type: 'PaymentFlowInstant' },
          payer: { payerType: 'CustomerPayer', customerID: customer.id },
          externalID: externalId('pay'),
        });
        const settled = await waitFor(() => gw.processing.getPayment(invoice.id, payment.id), (p) => p.status === 'captured' || p.status === 'failed');
        statuses.push(settled.status === 'failed' ? failureCodePath(settled.error) : settled.status);
      }
      expect(statuses).toEqual(['authorization_failed:insufficient_funds', 'captured']);
    });

    it('refuses to charge a customer without a bound card as invalid_request', async () => {
      const { customer } = await createCustomer(gw);
      const { invoice, invoiceAccessToken } = await createInvoice(gw);
      const error = await caught(
        gw.processing.createPayment(invoice.id, invoiceAccessToken.payload, {
          flow: { type: 'PaymentFlowInstant' },
          payer: { payerType: 'CustomerPayer', customerID: customer.id },
          externalID: externalId('pay'),
        }),
      );
      expect([error.kind, error.code]).toEqual(['invalid_request', 'invalidRequest']);
      expect((await control.ledger()).payments).toHaveLength(0);
    });

    it('refuses createPayment with the API key or another invoice’s token: only this invoice’s token works', async () => {
      const customer = await readyCustomer(gw);
      const mine = await createInvoice(gw);
      const other = await createInvoice(gw);
      const params = { flow: { type: 'PaymentFlowInstant' as const }, payer: { payerType: 'CustomerPayer' as const, customerID: customer.id }, externalID: externalId('pay') };
      expect((await caught(gw.processing.createPayment(mine.invoice.id, SANDBOX_KEY, params))).kind).toBe('unauthorized');
      expect((await caught(gw.processing.createPayment(mine.invoice.id, other.invoiceAccessToken.payload, params))).kind).toBe('unauthorized');
      expect((await control.ledger()).payments).toHaveLength(0);
    });

    it('reports an expired invoice access token as unauthorized; a fresh token then works', async () => {
      const customer = await readyCustomer(gw);
      const { invoice, invoiceAccessToken } = await createInvoice(gw);
      await control.expireTokens();
      const params = { flow: { type: 'PaymentFlowInstant' as const }, payer: { payerType: 'CustomerPayer' as const, customerID: customer.id }, externalID: externalId('pay') };
      const error = await caught(gw.processing.createPayment(invoice.id, invoiceAccessToken.payload, params));
      expect(error.kind).toBe('unauthorized');
      const fresh = await gw.processing.createInvoiceAccessToken(invoice.id);
      await expect(gw.processing.createPayment(invoice.id, fresh.payload, params)).resolves.toMatchObject({ invoiceID: invoice.id });
    });

    it('reports unknown invoices and payments as not_found with the provider message', async () => {
      const invoiceError = await caught(gw.processing.getInvoice('no-such-invoice'));
      expect([invoiceError.kind, invoiceError.providerMessage]).toEqual(['not_found', 'Invoice not found']);
      expect((await caught(gw.processing.getInvoiceEvents('no-such-invoice', { limit: 10 }))).kind).toBe('not_found');
      expect((await caught(gw.processing.createInvoiceAccessToken('no-such-invoice'))).kind).toBe('not_found');
      const { invoice } = await createInvoice(gw);
      const paymentError = await caught(gw.processing.getPayment(invoice.id, '99'));
      expect([paymentError.kind, paymentError.providerMessage]).toEqual(['not_found', 'Payment not found']);
    });

    it('reports a payment externalID reused on another invoice as conflict', async () => {
      const customer = await readyCustomer(gw);
      const extId = externalId('pay');
      const payer = { payerType: 'CustomerPayer' as const, customerID: customer.id };
      const first = await createInvoice(gw);
      await gw.processing.createPayment(first.invoice.id, first.invoiceAccessToken.payload, { flow: { type: 'PaymentFlowInstant' }, payer, externalID: extId });
      const second = await createInvoice(gw);
      const error = await caught(gw.processing.createPayment(second.invoice.id, second.invoiceAccessToken.payload, { flow: { type: 'PaymentFlowInstant' }, payer, externalID: extId }));
      expect([error.kind, error.externalID]).toEqual(['conflict', extId]);
      expect((await control.ledger()).payments).toHaveLength(1);
    });
  });
});
