import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { LoggedRequest } from '../support/sandbox-control';
import { invoiceParams, SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { useSandbox } from './support/sandbox-suite';

describe('sandbox: transport rules (credentials, headers, error shapes, request log)', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  const CUSTOMER = { shopID: SANDBOX_SHOP_ID, contactInfo: {}, metadata: {} };
  const IDENTITY = { name: 'n', provider: 'test', class: 'person' };

  describe('credentials', () => {
    it.each([
      ['POST', '/v2/processing/customers', CUSTOMER],
      ['POST', '/v2/processing/invoices', invoiceParams()],
      ['POST', '/wallet/v0/identities', IDENTITY],
      ['POST', '/payres/v0/bank-cards', { cardNumber: CARDS.success }],
      ['GET', '/wallet/v0/withdrawals/1', undefined],
    ])('answers %s %s without a valid bearer credential with 401 and an empty body', async (method, path, body) => {
      for (const token of [null, 'wrong-key', `${SANDBOX_API_KEY}x`]) {
        const res = await sandbox.call(method as 'GET' | 'POST', path, { body, token });
        expect({ token, status: res.status, body: res.data }).toEqual({ token, status: 401, body: '' });
      }
      const basic = await sandbox.call(method as 'GET' | 'POST', path, { body, token: null, headers: { Authorization: `Basic ${SANDBOX_API_KEY}` } });
      expect(basic.status).toBe(401);
    });

    it('accepts the API key as a bearer credential', async () => {
      expect((await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER })).status).toBe(201);
    });
  });

  describe('X-Request-ID', () => {
    it('is required: CAPI answers invalidRequest, the Wallet API SchemaViolated', async () => {
      const capi = await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: null });
      expect(capi.status).toBe(400);
      expect(capi.data).toEqual({ code: 'invalidRequest', message: 'Request parameter: X-Request-ID, error type: schema_violated' });
      const wallet = await sandbox.call('POST', '/wallet/v0/identities', { body: IDENTITY, requestId: null });
      expect(wallet.status).toBe(400);
      expect(wallet.data).toEqual({ errorType: 'SchemaViolated', name: 'X-Request-ID' });
      const payres = await sandbox.call('POST', '/payres/v0/bank-cards', { body: { cardNumber: CARDS.success }, requestId: null });
      expect(payres.data).toEqual({ errorType: 'SchemaViolated', name: 'X-Request-ID' });
    });

    it('is at most 32 characters long', async () => {
      const ok = await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: 'r'.repeat(32) });
      expect(ok.status).toBe(201);
      const capi = await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: 'r'.repeat(33) });
      expect(capi.status).toBe(400);
      expect(capi.data).toEqual({ code: 'invalidRequest', message: 'Request parameter: X-Request-ID, error type: wrong_length' });
      const wallet = await sandbox.call('POST', '/wallet/v0/identities', { body: IDENTITY, requestId: 'r'.repeat(33) });
      expect(wallet.data).toEqual({ errorType: 'WrongLength', name: 'X-Request-ID' });
    });

    it('is not a de-duplication key: two creates with the same X-Request-ID make two customers', async () => {
      const a = await sandbox.call<{ customer: { id: string } }>('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: 'same' });
      const b = await sandbox.call<{ customer: { id: string } }>('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: 'same' });
      expect(a.data.customer.id).not.toBe(b.data.customer.id);
    });
  });

  describe('bodies', () => {
    it('answers JSON with Content-Type application/json; charset=utf-8', async () => {
      const res = await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const res = await sandbox.call('POST', '/v2/processing/customers', { body: 'shopID=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(415);
      expect(res.data).toBe('');
    });

    it('answers malformed JSON in each API dialect', async () => {
      const capi = await sandbox.call('POST', '/v2/processing/invoices', { body: '{"shopID":' });
      expect(capi.status).toBe(400);
      expect(capi.data).toEqual({ code: 'invalidRequest', message: 'Request parameter: InvoiceParams, error type: schema_violated, description: body: not valid JSON' });
      const wallet = await sandbox.call('POST', '/wallet/v0/withdrawals', { body: '[1,' });
      expect(wallet.status).toBe(400);
      expect(wallet.data).toEqual({ errorType: 'SchemaViolated', name: 'WithdrawalParameters', description: 'body: not valid JSON' });
    });

    it('answers a JSON body that is not an object with a schema violation', async () => {
      const res = await sandbox.call('POST', '/v2/processing/customers', { body: '[]' });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message: 'Request parameter: CustomerParams, error type: schema_violated, description: body: must be a JSON object' });
    });
  });

  describe('card data', () => {
    it('tokenizes a card into opaque values that do not contain the card number', async () => {
      const res = await sandbox.call<Record<string, unknown>>('POST', '/v2/processing/payment-resources', {
        body: { paymentTool: { paymentToolType: 'CardData', cardNumber: CARDS.mirSuccess, expDate: '11/38', cvv: '321', cardHolder: 'IVAN IVANOV' }, clientInfo: { fingerprint: 'fp' } },
      });
      expect(res.status).toBe(201);
      expect(res.data).toEqual({
        paymentToolToken: expect.any(String),
        paymentSession: expect.any(String),
        paymentToolDetails: {
          detailsType: 'PaymentToolDetailsBankCard',
          bin: '220138',
          first6: '220138',
          lastDigits: '0013',
          last4: '0013',
          cardNumberMask: '220138******0013',
          paymentSystem: 'mir',
        },
        clientInfo: { fingerprint: 'fp', ip: '127.0.0.1' },
        validUntil: expect.any(String),
      });
      const text = JSON.stringify(res.data);
      expect(text).not.toContain(CARDS.mirSuccess);
      expect(text).not.toContain('321');
    });

    it.each([
      ['4242424242424241', '12/39', 'Invalid cardNumber checksum'],
      ['4242424242424242', '01/21', 'Invalid expiration date'],
      ['4242424242424242', '13/39', 'Invalid expiration date'],
      ['378282246310005', '12/39', 'Unrecognized bank card issuer'],
    ])('refuses card %s expiring %s: %s', async (cardNumber, expDate, message) => {
      const res = await sandbox.call('POST', '/v2/processing/payment-resources', {
        body: { paymentTool: { paymentToolType: 'CardData', cardNumber, expDate, cvv: '123' }, clientInfo: { fingerprint: 'fp' } },
      });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message });
    });

    it('de-duplicates tokenization by externalID for the same card only', async () => {
      const body = (cardNumber: string) => ({ paymentTool: { paymentToolType: 'CardData', cardNumber, expDate: '12/39' }, clientInfo: { fingerprint: 'fp' }, externalID: 'tok-1' });
      const a = await sandbox.call<{ paymentToolToken: string }>('POST', '/v2/processing/payment-resources', { body: body(CARDS.success) });
      const b = await sandbox.call<{ paymentToolToken: string }>('POST', '/v2/processing/payment-resources', { body: body(CARDS.success) });
      expect(b.status).toBe(201);
      expect(b.data.paymentToolToken).toBe(a.data.paymentToolToken);
      const c = await sandbox.call('POST', '/v2/processing/payment-resources', { body: body(CARDS.secondSuccess) });
      expect(c.status).toBe(409);
    });
  });

  describe('request log', () => {
    it('records what a client sent, with its status, card numbers masked and CVVs removed', async () => {
      await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER, requestId: 'trace-1' });
      await sandbox.call('POST', '/v2/processing/customers', { body: CUSTOMER, token: null });
      await sandbox.tokenize(CARDS.success);
      const log = await sandbox.control.send<LoggedRequest[]>('GET', 'requests?operation=createCustomer');
      expect(log.status).toBe(200);
      expect(log.data).toEqual([
        {
          operation: 'createCustomer',
          method: 'POST',
          path: '/v2/processing/customers',
          headers: { authorization: `Bearer ${SANDBOX_API_KEY}`, 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'trace-1', 'cache-control': 'no-cache' },
          body: CUSTOMER,
          status: 201,
          receivedAt: expect.any(String),
        },
        expect.objectContaining({ operation: 'createCustomer', status: 401, headers: expect.objectContaining({ authorization: null }) }),
      ]);
      const tokenization = (await sandbox.control.send<LoggedRequest[]>('GET', 'requests?operation=createPaymentResource')).data;
      expect(tokenization).toHaveLength(1);
      expect(tokenization[0].body).toMatchObject({ paymentTool: { cardNumber: '424242******4242', cvv: '***' } });
      expect(JSON.stringify(tokenization)).not.toContain(CARDS.success);
    });

    it('keeps the most recent requests within the limit, oldest first', async () => {
      for (let i = 1; i <= 3; i++) await sandbox.call('GET', `/v2/processing/customers/c${i}`);
      const last2 = (await sandbox.control.send<LoggedRequest[]>('GET', 'requests?limit=2')).data;
      expect(last2.map((r) => r.path)).toEqual(['/v2/processing/customers/c2', '/v2/processing/customers/c3']);
      expect(last2.map((r) => r.status)).toEqual([404, 404]);
      expect((await sandbox.control.send('GET', 'requests?limit=0')).status).toBe(400);
    });
  });

  it('requires customers and invoices to name the configured shop', async () => {
    const shopBound = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    try {
      const customer = await shopBound.call('POST', '/v2/processing/customers', { body: { ...CUSTOMER, shopID: 'someone-else' } });
      expect(customer.status).toBe(400);
      expect(customer.data).toEqual({ code: 'invalidShopID', message: 'Shop not found' });
      const invoice = await shopBound.call('POST', '/v2/processing/invoices', { body: invoiceParams({ shopID: 'someone-else' }) });
      expect(invoice.data).toEqual({ code: 'invalidShopID', message: 'Shop not found' });
      expect((await shopBound.call('POST', '/v2/processing/customers', { body: CUSTOMER })).status).toBe(201);
    } finally {
      await shopBound.close();
    }
  });
});
