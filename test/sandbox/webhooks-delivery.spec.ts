import type { Customer, Identity, WalletWebhook, Webhook } from '../../src/gateway/provider-api.types';
import { verifyProviderSignature } from '../../src/gateway/provider-webhook-signature';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { useSandbox } from './support/sandbox-suite';
import { ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

const ALL_INVOICE_TYPES = ['InvoiceCreated', 'InvoicePaid', 'InvoiceCancelled', 'PaymentStarted', 'PaymentProcessed', 'PaymentCaptured', 'PaymentFailed'];
const ALL_CUSTOMER_TYPES = ['CustomerCreated', 'CustomerReady', 'CustomerBindingStarted', 'CustomerBindingSucceeded', 'CustomerBindingFailed'];
/** How far ahead an invoice is due when a test waits for it to be overdue. */
const OVERDUE_SOON_MS = 3_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox: signed webhook deliveries', () => {
  let sandbox: SandboxClient;
  let receiver: WebhookReceiver;
  useSandbox((started) => (sandbox = started));

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answerWith(() => 200);
  });

  async function processingWebhook(topic: 'InvoicesTopic' | 'CustomersTopic', eventTypes: string[], shopID = SANDBOX_SHOP_ID): Promise<Webhook> {
    const res = await sandbox.call<Webhook>('POST', '/v2/processing/webhooks', { body: { scope: { topic, shopID, eventTypes }, url: receiver.url } });
    expect(res.status).toBe(201);
    return res.data;
  }

  async function walletWebhook(identityID: string, scope: Record<string, unknown>): Promise<WalletWebhook> {
    const res = await sandbox.call<WalletWebhook>('POST', '/wallet/v0/webhooks', { body: { identityID, scope, url: receiver.url } });
    expect(res.status).toBe(201);
    return res.data;
  }

  /** Every delivery is a signed JSON POST whose signature verifies with the registration's key over the exact bytes. */
  function expectSigned(received: ReceivedWebhook[], publicKey: string): void {
    for (const r of received) {
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      const header = r.headers['content-signature'] as string;
      expect(header).toMatch(/^alg=RS256; digest=[A-Za-z0-9_-]+={0,2}$/);
      // 2048-bit signatures are 256 bytes: 344 base64 characters, the last one padding.
      expect(header.slice('alg=RS256; digest='.length)).toMatch(/^.{342}==?$|^.{343}=$/);
      expect(verifyProviderSignature(r.rawBody, header, [publicKey])).toBe(true);
    }
  }

  /**
   * Waits until the sandbox has finished every delivery it queued: each event so far went (or not) to the receiver,
   * so what the receiver holds is all it will get for what has happened until now. Replaces a guess at how long to
   * wait before asserting that something did not arrive.
   */
  async function allSent(): Promise<void> {
    await waitFor(() => sandbox.control.webhookDeliveries({ status: 'pending' }), (pending) => pending.length === 0, { what: 'every queued webhook delivery sent' });
  }

  async function paidInvoice(customer: Customer): Promise<{ invoiceID: string; paymentID: string }> {
    const { invoice, invoiceAccessToken } = await sandbox.createInvoice({ externalID: 'inv-ext-1' });
    const paid = await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id, { externalID: 'pay-ext-1', metadata: { order: 7 } });
    expect(paid.status).toBe(201);
    await sandbox.finalPayment(invoice.id, paid.data.id);
    return { invoiceID: invoice.id, paymentID: paid.data.id };
  }

  it('delivers an invoice’s life in order, signed with the party key, in the provider’s payload shapes', async () => {
    const customer = await sandbox.readyCustomer();
    const webhook = await processingWebhook('InvoicesTopic', ALL_INVOICE_TYPES);
    const { invoiceID, paymentID } = await paidInvoice(customer);
    const types = ['InvoiceCreated', 'PaymentStarted', 'PaymentProcessed', 'PaymentCaptured', 'InvoicePaid'];
    const received = await receiver.waitForTypes(types);
    expect(received.map((r) => r.json.eventType)).toEqual(types);
    expect(received.every((r) => r.path === '/hooks')).toBe(true);
    expectSigned(received, webhook.publicKey);

    const ids = received.map((r) => r.json.eventID as number);
    ids.forEach((id, i) => {
      expect(Number.isSafeInteger(id)).toBe(true);
      if (i > 0) expect(id).toBeGreaterThan(ids[i - 1]);
    });
    for (const r of received) {
      expect(r.json).toMatchObject({ topic: 'InvoicesTopic', occuredAt: expect.stringMatching(ISO) });
      expect(r.json).not.toHaveProperty('occurredAt');
      // The invoice as webhooks show it: no externalID.
      expect(Object.keys(r.json.invoice).sort()).toEqual(['amount', 'createdAt', 'currency', 'dueDate', 'id', 'metadata', 'product', 'shopID', 'status']);
      expect(r.json.invoice).toMatchObject({ id: invoiceID, shopID: SANDBOX_SHOP_ID, amount: 1500, currency: 'RUB', product: 'Monthly plan', metadata: { subscriptionId: 'sub-1' } });
    }
    // Capture and payment of the invoice are one change: the capture already shows the invoice paid.
    expect(received.map((r) => r.json.invoice.status)).toEqual(['unpaid', 'unpaid', 'unpaid', 'paid', 'paid']);
    expect(received[0].json).not.toHaveProperty('payment');
    const captured = received[3].json;
    // The payment as webhooks show it: no invoiceID, flow or externalID; the invoice in the same event names it.
    expect(captured.payment).toEqual({
      id: paymentID,
      createdAt: expect.stringMatching(ISO),
      status: 'captured',
      amount: 1500,
      currency: 'RUB',
      paymentSession: expect.any(String),
      paymentToolToken: expect.any(String),
      contactInfo: customer.contactInfo,
      payer: { payerType: 'CustomerPayer', customerID: customer.id },
      metadata: { order: 7 },
    });
    expect(received.slice(1, 4).map((r) => r.json.payment.status)).toEqual(['pending', 'processed', 'captured']);
  });

  it('delivers a declined payment with the merchant’s error tree; the invoice stays unpaid', async () => {
    const customer = await sandbox.readyCustomer();
    await sandbox.control.scriptOutcomes(customer.id, ['authorization_failed:insufficient_funds']);
    await processingWebhook('InvoicesTopic', ['PaymentFailed', 'PaymentCaptured']);
    await paidInvoice(customer);
    const [failed] = await receiver.waitForTypes(['PaymentFailed']);
    expect(failed.json.payment).toMatchObject({ status: 'failed', error: { code: 'authorization_failed', subError: { code: 'insufficient_funds' } } });
    expect(failed.json.invoice.status).toBe('unpaid');
    await allSent();
    expect(receiver.received.map((r) => r.json.eventType)).toEqual(['PaymentFailed']);
  });

  it('delivers InvoiceCancelled for an invoice left unpaid past its due date, once the sandbox notices', async () => {
    await processingWebhook('InvoicesTopic', ['InvoiceCancelled']);
    // Due soon, but later than a busy machine takes to create it (a due date already past is refused).
    const { invoice } = await sandbox.createInvoice({ dueDate: new Date(Date.now() + OVERDUE_SOON_MS).toISOString() });
    // The sandbox cancels an overdue invoice when it is next looked at.
    await waitFor(
      async () => (await sandbox.call<{ status: string }>('GET', `/v2/processing/invoices/${invoice.id}`)).data.status,
      (status) => status === 'cancelled',
      { everyMs: 200, what: 'the overdue invoice cancelled' },
    );
    const [cancelled] = await receiver.waitForTypes(['InvoiceCancelled']);
    expect(cancelled.json.invoice).toMatchObject({ id: invoice.id, status: 'cancelled', reason: 'overdue' });
  });

  it('delivers only subscribed event types of the webhook’s shop, to every matching webhook', async () => {
    const customer = await sandbox.readyCustomer();
    const capturedOnly = await processingWebhook('InvoicesTopic', ['PaymentCaptured']);
    const secondCaptured = await processingWebhook('InvoicesTopic', ['PaymentCaptured', 'InvoicePaid']);
    await processingWebhook('InvoicesTopic', ALL_INVOICE_TYPES, 'another-shop');
    await processingWebhook('CustomersTopic', ['CustomerCreated']);
    await paidInvoice(customer);
    await receiver.waitFor((r) => r.length >= 3);
    await allSent();
    const byWebhook = await sandbox.control.webhookDeliveries();
    expect(byWebhook.map((d) => [d.webhookID, d.eventType]).sort()).toEqual(
      [
        [capturedOnly.id, 'PaymentCaptured'],
        [secondCaptured.id, 'PaymentCaptured'],
        [secondCaptured.id, 'InvoicePaid'],
      ].sort(),
    );
    // One event, one eventID and one body, whichever webhook it goes to.
    const captures = byWebhook.filter((d) => d.eventType === 'PaymentCaptured');
    expect(captures[0].body).toBe(captures[1].body);
    expect(receiver.received).toHaveLength(3);
  });

  it('delivers a customer’s binding and readiness, and a failed binding with its error', async () => {
    const webhook = await processingWebhook('CustomersTopic', ALL_CUSTOMER_TYPES);
    const { customer } = await sandbox.createCustomer({ externalID: 'cus-ext-1', metadata: { crm: 'c-1' } });
    const first = await sandbox.bindCard(customer.id, CARDS.success);
    const types = ['CustomerCreated', 'CustomerBindingStarted', 'CustomerBindingSucceeded', 'CustomerReady'];
    let received = await receiver.waitForTypes(types);
    expect(received.map((r) => r.json.eventType)).toEqual(types);
    expectSigned(received, webhook.publicKey);
    for (const r of received) {
      expect(r.json).toMatchObject({ topic: 'CustomersTopic', eventID: expect.any(Number), occuredAt: expect.stringMatching(ISO) });
      expect(r.json.customer).toEqual({ id: customer.id, shopID: SANDBOX_SHOP_ID, status: expect.any(String), contactInfo: customer.contactInfo, metadata: { crm: 'c-1' } });
    }
    expect(received.map((r) => r.json.customer.status)).toEqual(['unready', 'unready', 'ready', 'ready']);
    expect(received[1].json.binding).toEqual({ id: first.id, paymentResource: first.paymentResource, status: 'pending' });
    expect(received[2].json.binding).toEqual({ id: first.id, paymentResource: first.paymentResource, status: 'succeeded' });
    expect(received[3].json).not.toHaveProperty('binding');

    // A second card: no second CustomerReady. A declined card: CustomerBindingFailed with the error.
    await sandbox.bindCard(customer.id, CARDS.secondSuccess);
    const failed = await sandbox.bindCard(customer.id, CARDS.insufficientFunds);
    received = await receiver.waitFor((r) => r.filter((x) => x.json.eventType === 'CustomerBindingFailed').length === 1);
    await allSent();
    expect(receiver.received.map((r) => r.json.eventType).slice(4)).toEqual([
      'CustomerBindingStarted',
      'CustomerBindingSucceeded',
      'CustomerBindingStarted',
      'CustomerBindingFailed',
    ]);
    const failure = receiver.received[7].json.binding;
    expect(failure).toEqual({ id: failed.id, paymentResource: failed.paymentResource, status: 'failed', error: { code: 'authorization_failed', message: 'Insufficient Funds' } });
  });

  describe('wallet', () => {
    let identity: Identity;

    beforeEach(async () => {
      identity = await sandbox.createIdentity();
    });

    it('delivers withdrawal events of the scoped wallet: started with the withdrawal, finished with ids only', async () => {
      const wallet = await sandbox.createWallet(identity.id);
      const otherWallet = await sandbox.createWallet(identity.id);
      const webhook = await walletWebhook(identity.id, {
        topic: 'WithdrawalsTopic',
        walletID: wallet.id,
        eventTypes: ['WithdrawalStarted', 'WithdrawalSucceeded', 'WithdrawalFailed'],
      });
      const ok = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const declined = await sandbox.authorizedDestination(identity.id, CARDS.insufficientFunds);
      const body = { body: { amount: 50_000, currency: 'RUB' } };
      const first = await sandbox.call<{ id: string }>('POST', '/wallet/v0/withdrawals', { body: { wallet: wallet.id, destination: ok.id, externalID: 'wd-1', ...body } });
      await sandbox.finalWithdrawal(first.data.id);
      const second = await sandbox.call<{ id: string }>('POST', '/wallet/v0/withdrawals', { body: { wallet: wallet.id, destination: declined.id, ...body } });
      await sandbox.finalWithdrawal(second.data.id);
      const other = await sandbox.call<{ id: string }>('POST', '/wallet/v0/withdrawals', { body: { wallet: otherWallet.id, destination: ok.id, ...body } });
      await sandbox.finalWithdrawal(other.data.id);

      const received = await receiver.waitFor((r) => r.length >= 4);
      await allSent();
      expect(receiver.received).toHaveLength(4);
      expectSigned(received, webhook.publicKey);
      const byWithdrawal = (id: string) => received.filter((r) => (r.json.withdrawal?.id ?? r.json.withdrawalID) === id).map((r) => r.json);
      const [started, succeeded] = byWithdrawal(first.data.id);
      expect(started).toEqual({
        eventID: '1',
        occuredAt: expect.stringMatching(ISO),
        topic: 'WithdrawalTopic',
        eventType: 'WithdrawalStarted',
        withdrawal: expect.objectContaining({ id: first.data.id, wallet: wallet.id, destination: ok.id, body: { amount: 50_000, currency: 'RUB' }, status: 'Pending', externalID: 'wd-1' }),
      });
      expect(succeeded).toEqual({ eventID: '2', occuredAt: expect.stringMatching(ISO), topic: 'WithdrawalTopic', eventType: 'WithdrawalSucceeded', withdrawalID: first.data.id, externalID: 'wd-1' });
      // No failure details in the event: the withdrawal itself says why.
      expect(byWithdrawal(second.data.id)[1]).toEqual({
        eventID: '2',
        occuredAt: expect.stringMatching(ISO),
        topic: 'WithdrawalTopic',
        eventType: 'WithdrawalFailed',
        withdrawalID: second.data.id,
      });
    });

    it('delivers destination events to the identity’s webhooks only, signed with the identity key', async () => {
      const webhook = await walletWebhook(identity.id, { topic: 'DestinationsTopic', eventTypes: ['DestinationCreated', 'DestinationUnauthorized', 'DestinationAuthorized'] });
      const processing = await processingWebhook('CustomersTopic', ['CustomerCreated']);
      const other = await sandbox.createIdentity({ name: 'Other LLC' });
      await sandbox.authorizedDestination(other.id, CARDS.success);
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);

      const received = await receiver.waitFor((r) => r.length >= 3);
      await allSent();
      expect(received.map((r) => [r.json.eventType, r.json.eventID])).toEqual([
        ['DestinationCreated', '1'],
        ['DestinationUnauthorized', '2'],
        ['DestinationAuthorized', '3'],
      ]);
      expectSigned(received, webhook.publicKey);
      expect(verifyProviderSignature(received[0].rawBody, received[0].headers['content-signature'] as string, [processing.publicKey])).toBe(false);
      expect(received[0].json).toMatchObject({ topic: 'DestinationTopic', destination: { id: destination.id, identity: identity.id, status: 'Unauthorized' } });
      expect(received[2].json).toEqual({ eventID: '3', occuredAt: expect.stringMatching(ISO), topic: 'DestinationTopic', eventType: 'DestinationAuthorized', destinationID: destination.id });
    });
  });

  it('stops delivering to a deleted webhook', async () => {
    const webhook = await processingWebhook('CustomersTopic', ['CustomerCreated']);
    await sandbox.createCustomer();
    await receiver.waitFor((r) => r.length === 1);
    expect((await sandbox.call('DELETE', `/v2/processing/webhooks/${webhook.id}`)).status).toBe(204);
    await sandbox.createCustomer();
    await allSent();
    expect(receiver.received).toHaveLength(1);
  });

  it('answers API calls at once while a receiver hangs', async () => {
    // The receiver holds the first delivery until the test lets go: the API calls below are all answered meanwhile.
    let letGo: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (letGo = resolve));
    let arrived = 0;
    receiver.answerWith(async () => {
      if (arrived++ === 0) await hanging;
      return 200;
    });
    await processingWebhook('CustomersTopic', ['CustomerCreated']);
    const { customer: first } = await sandbox.createCustomer();
    await waitFor(async () => arrived, (n) => n >= 1, { what: 'the first delivery held by the receiver' });
    for (let i = 0; i < 19; i++) await sandbox.createCustomer();
    expect(receiver.received.filter((r) => r.json.customer.id === first.id)).toEqual([]);
    letGo();
    await waitFor(
      () => sandbox.control.webhookDeliveries(),
      (list) => list.length === 20,
      { what: '20 deliveries recorded' },
    );
  });
});
