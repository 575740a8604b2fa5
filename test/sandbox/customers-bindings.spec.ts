import type { CustomerBinding } from '../../src/gateway/provider-api.types';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { sleep } from '../support/wait';
import { readCustomerEvents, useSandbox } from './support/sandbox-suite';

describe('sandbox: customers and card bindings', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  const events = (customerID: string, query?: string) => readCustomerEvents(sandbox, customerID, query);

  it('creates an unready customer with an access token and reads it back without a wrapper', async () => {
    const created = await sandbox.createCustomer({ metadata: { plan: 'gold' } });
    expect(created.customer).toEqual({
      id: expect.stringMatching(/^[0-9A-Za-z]{10}$/),
      shopID: SANDBOX_SHOP_ID,
      contactInfo: { email: 'payer@example.com', phoneNumber: '+79990001122' },
      metadata: { plan: 'gold' },
      status: 'unready',
    });
    expect(created.customerAccessToken.payload).toEqual(expect.any(String));
    const read = await sandbox.call('GET', `/v2/processing/customers/${created.customer.id}`);
    expect(read.status).toBe(200);
    expect(read.data).toEqual(created.customer);
  });

  it('answers an unknown customer with 404 "Customer not found"', async () => {
    const res = await sandbox.call('GET', '/v2/processing/customers/nope');
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ message: 'Customer not found' });
  });

  it.each([
    [{ contactInfo: {}, metadata: {} }, 'shopID: is required'],
    [{ shopID: SANDBOX_SHOP_ID, metadata: {} }, 'contactInfo: is required'],
    [{ shopID: SANDBOX_SHOP_ID, contactInfo: {} }, 'metadata: is required'],
    [{ shopID: SANDBOX_SHOP_ID, contactInfo: { phoneNumber: '89990001122' }, metadata: {} }, 'contactInfo.phoneNumber: must match'],
    [{ shopID: 'x'.repeat(41), contactInfo: {}, metadata: {} }, 'shopID: must be at most 40'],
  ])('rejects an invalid customer body %j with CAPI 400 invalidRequest', async (body, detail) => {
    const res = await sandbox.call<{ code: string; message: string }>('POST', '/v2/processing/customers', { body });
    expect(res.status).toBe(400);
    expect(res.data.code).toBe('invalidRequest');
    expect(res.data.message).toContain('Request parameter: CustomerParams, error type: schema_violated, description: ');
    expect(res.data.message).toContain(detail);
  });

  it('binds a card without 3-D Secure: pending, then succeeded, and the customer becomes ready', async () => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.startBinding(customer.id, CARDS.success);
    expect(binding.status).toBe('pending');
    expect(binding.paymentResource.paymentToolDetails).toMatchObject({ bin: '424242', lastDigits: '4242', paymentSystem: 'visa' });

    const final = await sandbox.finalBinding(customer.id, binding.id);
    expect(final.status).toBe('succeeded');
    expect(final.error).toBeUndefined();
    expect((await sandbox.getCustomer(customer.id)).status).toBe('ready');

    // The test bank asks no 3-D Secure for this card: no interaction at all.
    const stream = await events(customer.id);
    expect(stream.map((e) => e.id)).toEqual([1, 2]);
    expect(stream.map((e) => e.changes.map((c) => c.changeType))).toEqual([['CustomerBindingStarted'], ['CustomerBindingStatusChanged']]);
    const started = stream[0].changes[0] as { customerBinding: CustomerBinding };
    expect(started.customerBinding).toMatchObject({ id: binding.id, status: 'pending' });
    expect(stream[1].changes[0]).toEqual({ changeType: 'CustomerBindingStatusChanged', customerBindingID: binding.id, status: 'succeeded' });

    expect((await sandbox.control.ledger()).bindingCharges).toEqual([{ customerID: customer.id, bindingID: binding.id, amount: 1000, currency: 'RUB', refunded: true }]);
  });

  it('binds a 3-D Secure card once the payer confirms at the ACS page the redirect names', async () => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.startBinding(customer.id, CARDS.threeDsSuccess);
    const interaction = await sandbox.interactionOf(customer.id, binding.id);
    expect(interaction?.userInteraction).toEqual({
      interactionType: 'Redirect',
      request: {
        requestType: 'BrowserPostRequest',
        uriTemplate: `${sandbox.url}/sandbox/acs`,
        form: [
          { key: 'PaReq', template: expect.any(String) },
          { key: 'MD', template: binding.id },
          { key: 'TermUrl', template: `${sandbox.url}/sandbox/acs{?termination_uri}` },
        ],
      },
    });
    // Nothing happens on its own while the payer has not confirmed.
    await sleep(50);
    const waiting = await sandbox.call<CustomerBinding>('GET', `/v2/processing/customers/${customer.id}/bindings/${binding.id}`);
    expect(waiting.data.status).toBe('pending');

    const page = await sandbox.openAcs(customer.id, binding.id);
    expect(page.status).toBe(200);
    expect(page.html).toContain('card ending 1881');
    expect(page.html).toContain('>Confirm</button>');
    const confirmed = await sandbox.passThreeDs(customer.id, binding.id);
    expect(confirmed?.html).toContain('The card ending 1881 is bound');

    expect((await sandbox.finalBinding(customer.id, binding.id)).status).toBe('succeeded');
    expect((await sandbox.getCustomer(customer.id)).status).toBe('ready');
    expect((await events(customer.id)).map((e) => e.changes.map((c) => c.changeType))).toEqual([
      ['CustomerBindingStarted'],
      ['CustomerBindingInteractionRequested'],
      ['CustomerBindingInteractionCompleted'],
      ['CustomerBindingStatusChanged'],
    ]);
  });

  it('charges 1 USD (100 minor units) for a binding when the customer metadata says USD', async () => {
    const { customer } = await sandbox.createCustomer({ metadata: { currency: 'USD' } });
    await sandbox.bindCard(customer.id, CARDS.secondSuccess);
    expect((await sandbox.control.ledger()).bindingCharges).toEqual([expect.objectContaining({ customerID: customer.id, amount: 100, currency: 'USD', refunded: true })]);
  });

  const SUCCEEDING: [string, string][] = [
    ['4242424242424242', 'Visa success'],
    ['5555555555554444', 'MasterCard success'],
    ['586824160825533338', 'Maestro success'],
    ['2201382000000013', 'MIR success'],
    ['4012888888881881', 'Visa 3-D Secure 1 success'],
    ['5169147129584558', 'MasterCard 3-D Secure 1 success'],
    ['4929172190150505', 'Visa 3-D Secure 2 success'],
    ['4556418324571052', 'Visa 3-D Secure success with GET ACS'],
    ['4556724110260093', 'Visa 3-DS 2 success with GET ACS'],
    ['4300000000000777', 'Apple Pay success card'],
  ];
  it.each(SUCCEEDING)('binds %s (%s)', async (pan) => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.bindCard(customer.id, pan);
    expect(binding.status).toBe('succeeded');
    expect((await sandbox.getCustomer(customer.id)).status).toBe('ready');
  });

  it('asks GET-ACS cards for a BrowserGetRequest redirect', async () => {
    const { customer } = await sandbox.createCustomer();
    await sandbox.bindCard(customer.id, '4556418324571052');
    const interaction = (await events(customer.id))[1].changes[0] as { userInteraction: { request: { requestType: string } } };
    expect(interaction.userInteraction.request.requestType).toBe('BrowserGetRequest');
  });

  const FAILING: [string, string, string][] = [
    ['4987654321098769', 'preauthorization_failed', '3-D Secure Failure'],
    ['5123456789012346', 'preauthorization_failed', '3-D Secure Failure'],
    ['4342561111111118', 'preauthorization_failed', '3-D Secure Timeout'],
    ['5112000200000002', 'preauthorization_failed', '3-D Secure Timeout'],
    ['4000000000000002', 'authorization_failed', 'Insufficient Funds'],
    ['5100000000000412', 'authorization_failed', 'Insufficient Funds'],
    ['4222222222222220', 'authorization_failed', 'Invalid Card'],
    ['5100000000000511', 'authorization_failed', 'Invalid Card'],
    ['4003830171874018', 'authorization_failed', 'CVV Match Fail'],
    ['5496198584584769', 'authorization_failed', 'CVV Match Fail'],
    ['4000000000000069', 'authorization_failed', 'Expired Card'],
    ['5105105105105100', 'authorization_failed', 'Expired Card'],
    ['4111110000000112', 'authorization_failed', 'Unknown Failure'],
    ['5124990000000002', 'authorization_failed', 'Unknown Failure'],
    ['5000000000000009', 'authorization_failed', 'Token Pay Failure'],
    ['4111111111111111', 'authorization_failed', 'Unsupported Card'],
  ];
  it.each(FAILING)('fails the binding of %s with %s (%s); the customer stays unready', async (pan, code, message) => {
    const { customer } = await sandbox.createCustomer();
    // A timeout card's check fails only when the wait ends: once the payer has confirmed, the test ends it (a short
    // wait instead would race the payer on a busy machine, whose ACS page then answers 404).
    const binding = message.endsWith('Timeout') ? await bindUntilTheWaitEnds(customer.id, pan) : await sandbox.bindCard(customer.id, pan);
    expect(binding.status).toBe('failed');
    expect(binding.error).toEqual({ code, message });
    expect((await sandbox.getCustomer(customer.id)).status).toBe('unready');
    const last = (await events(customer.id)).at(-1);
    expect(last?.changes).toEqual([{ changeType: 'CustomerBindingStatusChanged', customerBindingID: binding.id, status: 'failed', error: { code, message } }]);
    expect((await sandbox.control.ledger()).bindingCharges).toEqual([]);
  });

  /** Binds a 3-D Secure timeout card as a payer would, then ends the check's wait: its issuer never answers. */
  async function bindUntilTheWaitEnds(customerID: string, pan: string): Promise<CustomerBinding> {
    const started = await sandbox.startBinding(customerID, pan);
    await sandbox.passThreeDs(customerID, started.id);
    expect(await sandbox.control.expireThreeDs(started.id)).toBe(1);
    return sandbox.finalBinding(customerID, started.id);
  }

  it('never reports a completed interaction when the payer does not come back from 3-D Secure', async () => {
    const { customer } = await sandbox.createCustomer();
    await bindUntilTheWaitEnds(customer.id, '4342561111111118');
    const kinds = (await events(customer.id)).flatMap((e) => e.changes.map((c) => c.changeType));
    expect(kinds).toEqual(['CustomerBindingStarted', 'CustomerBindingInteractionRequested', 'CustomerBindingStatusChanged']);
  });

  it('keeps a ready customer ready when a later binding fails', async () => {
    const customer = await sandbox.readyCustomer(CARDS.success);
    const failed = await sandbox.bindCard(customer.id, CARDS.insufficientFunds);
    expect(failed.status).toBe('failed');
    expect((await sandbox.getCustomer(customer.id)).status).toBe('ready');
  });

  it('lists a customer bindings and answers an unknown binding with 404', async () => {
    const { customer } = await sandbox.createCustomer();
    const first = await sandbox.bindCard(customer.id, CARDS.success);
    const second = await sandbox.bindCard(customer.id, CARDS.insufficientFunds);
    const list = await sandbox.call<CustomerBinding[]>('GET', `/v2/processing/customers/${customer.id}/bindings`);
    expect(list.data.map((b) => [b.id, b.status])).toEqual([
      [first.id, 'succeeded'],
      [second.id, 'failed'],
    ]);
    const missing = await sandbox.call('GET', `/v2/processing/customers/${customer.id}/bindings/nope`);
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual({ message: 'Customer binding not found' });
  });

  describe('binding request errors', () => {
    it('rejects an unknown payment tool token with invalidPaymentToolToken', async () => {
      const { customer } = await sandbox.createCustomer();
      const res = await sandbox.call('POST', `/v2/processing/customers/${customer.id}/bindings`, {
        body: { paymentResource: { paymentToolToken: 'forged', paymentSession: 'forged' } },
      });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidPaymentToolToken', message: 'Specified payment tool token is invalid' });
    });

    it('rejects a session that was not issued with the token with invalidPaymentSession', async () => {
      const { customer } = await sandbox.createCustomer();
      const a = await sandbox.tokenize(CARDS.success);
      const b = await sandbox.tokenize(CARDS.success);
      const res = await sandbox.call('POST', `/v2/processing/customers/${customer.id}/bindings`, {
        body: { paymentResource: { paymentToolToken: a.paymentToolToken, paymentSession: b.paymentSession } },
      });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidPaymentSession', message: 'Specified payment session is invalid' });
    });

    it('rejects a payment tool token older than 64 minutes', async () => {
      const { customer } = await sandbox.createCustomer();
      const resource = await sandbox.tokenize(CARDS.success);
      expect(Date.parse(resource.validUntil ?? '') - Date.now()).toBeGreaterThan(63 * 60 * 1000);
      const realNow = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(realNow + 65 * 60 * 1000);
      try {
        const res = await sandbox.call('POST', `/v2/processing/customers/${customer.id}/bindings`, {
          body: { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } },
        });
        expect(res.status).toBe(400);
        expect(res.data).toEqual({ code: 'invalidPaymentToolToken', message: 'Specified payment tool token is invalid' });
      } finally {
        clock.mockRestore();
      }
    });

    it('answers a binding for an unknown customer with 404', async () => {
      const resource = await sandbox.tokenize(CARDS.success);
      const res = await sandbox.call('POST', '/v2/processing/customers/nope/bindings', {
        body: { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } },
      });
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ message: 'Customer not found' });
    });
  });

  describe('customer event paging', () => {
    it('returns events strictly after eventID, at most limit', async () => {
      const { customer } = await sandbox.createCustomer();
      // A 3-D Secure card: four events (started, interaction requested and completed, succeeded).
      await sandbox.bindCard(customer.id, CARDS.threeDsSuccess);
      expect((await events(customer.id, 'limit=2')).map((e) => e.id)).toEqual([1, 2]);
      expect((await events(customer.id, 'limit=1&eventID=2')).map((e) => e.id)).toEqual([3]);
      expect((await events(customer.id, 'limit=10&eventID=4')).map((e) => e.id)).toEqual([]);
    });

    it('answers an unknown eventID with 404 "Event not found"', async () => {
      const { customer } = await sandbox.createCustomer();
      const res = await sandbox.call('GET', `/v2/processing/customers/${customer.id}/events?limit=5&eventID=7`);
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ message: 'Event not found' });
    });

    it.each([
      ['', 'Request parameter: limit, error type: schema_violated'],
      ['limit=0', 'Request parameter: limit, error type: not_in_range'],
      ['limit=ten', 'Request parameter: limit, error type: wrong_type'],
      ['limit=5&eventID=x', 'Request parameter: eventID, error type: wrong_type'],
    ])('rejects the query "%s" with 400 invalidRequest', async (query, message) => {
      const { customer } = await sandbox.createCustomer();
      const res = await sandbox.call('GET', `/v2/processing/customers/${customer.id}/events?${query}`);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message });
    });
  });

  describe('externalID idempotency', () => {
    it('returns the same customer, with a fresh access token, for a repeat with the same features', async () => {
      const first = await sandbox.createCustomer({ externalID: 'cust-1', metadata: { a: 1 } });
      // metadata is not a feature: the repeat still matches.
      const again = await sandbox.createCustomer({ externalID: 'cust-1', metadata: { a: 2 } });
      expect(again.customer).toEqual(first.customer);
      expect(again.customerAccessToken.payload).not.toBe(first.customerAccessToken.payload);
    });

    it('answers a repeat with other features with 409 naming the existing customer', async () => {
      const first = await sandbox.createCustomer({ externalID: 'cust-2' });
      const res = await sandbox.call('POST', '/v2/processing/customers', {
        body: { shopID: SANDBOX_SHOP_ID, contactInfo: { email: 'other@example.com' }, metadata: {}, externalID: 'cust-2' },
      });
      expect(res.status).toBe(409);
      expect(res.data).toEqual({ externalID: 'cust-2', id: first.customer.id, message: "This 'externalID' has been used by another request" });
    });

    it('returns the existing binding, with its current status, for a repeated binding request', async () => {
      const { customer } = await sandbox.createCustomer();
      const resource = await sandbox.tokenize(CARDS.success);
      const body = { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession }, externalID: 'bind-1' };
      const first = await sandbox.call<CustomerBinding>('POST', `/v2/processing/customers/${customer.id}/bindings`, { body });
      await sandbox.finalBinding(customer.id, first.data.id);
      const again = await sandbox.call<CustomerBinding>('POST', `/v2/processing/customers/${customer.id}/bindings`, { body });
      expect(again.status).toBe(201);
      expect(again.data).toMatchObject({ id: first.data.id, status: 'succeeded' });

      const other = await sandbox.tokenize(CARDS.secondSuccess);
      const conflict = await sandbox.call('POST', `/v2/processing/customers/${customer.id}/bindings`, {
        body: { paymentResource: { paymentToolToken: other.paymentToolToken, paymentSession: other.paymentSession }, externalID: 'bind-1' },
      });
      expect(conflict.status).toBe(409);
      expect(conflict.data).toMatchObject({ externalID: 'bind-1', id: first.data.id });
    });
  });

  describe('the customer access token (client-side binding flow)', () => {
    it('lets the payer side tokenize, bind and poll for its own customer only', async () => {
      const { customer, customerAccessToken } = await sandbox.createCustomer();
      const other = await sandbox.createCustomer();
      const token = customerAccessToken.payload;
      const resource = await sandbox.tokenize(CARDS.success, undefined, token);
      const bind = await sandbox.call<CustomerBinding>('POST', `/v2/processing/customers/${customer.id}/bindings`, {
        token,
        body: { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } },
      });
      expect(bind.status).toBe(201);
      expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}/events?limit=1`, { token })).status).toBe(200);
      expect((await sandbox.call('GET', `/v2/processing/customers/${other.customer.id}`, { token })).status).toBe(401);
      expect((await sandbox.call('POST', '/v2/processing/customers', { token, body: { shopID: SANDBOX_SHOP_ID, contactInfo: {}, metadata: {} } })).status).toBe(401);
    });

    it('renews the customer access token with the API key', async () => {
      const { customer } = await sandbox.createCustomer();
      const res = await sandbox.call<{ payload: string }>('POST', `/v2/processing/customers/${customer.id}/access-tokens`);
      expect(res.status).toBe(201);
      expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`, { token: res.data.payload })).status).toBe(200);
    });

    it('issues a customer access token only to the API key, and answers an unknown customer with 404', async () => {
      const { customer, customerAccessToken } = await sandbox.createCustomer();
      const path = `/v2/processing/customers/${customer.id}/access-tokens`;
      const byCustomer = await sandbox.call('POST', path, { token: customerAccessToken.payload });
      expect([byCustomer.status, byCustomer.data]).toEqual([401, '']);
      const unknown = await sandbox.call('POST', '/v2/processing/customers/nope/access-tokens');
      expect([unknown.status, unknown.data]).toEqual([404, { message: 'Customer not found' }]);
      const first = await sandbox.call<{ payload: string }>('POST', path);
      const second = await sandbox.call<{ payload: string }>('POST', path);
      expect(first.data.payload).not.toBe(second.data.payload);
      // Every token issued stays valid: a new one does not revoke the link a payer already holds.
      expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`, { token: customerAccessToken.payload })).status).toBe(200);
    });
  });
});
