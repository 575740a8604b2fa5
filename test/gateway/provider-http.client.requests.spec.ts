import { caught } from './support/gateway-harness';
import { API_KEY, createWithKey, createWithoutKey, read, useScriptedProvider } from './support/scripted-client-harness';
import { json, raw, ScriptedProviderServer } from './support/scripted-provider.server';

describe('ProviderHttpClient against a scripted local server', () => {
  let server: ScriptedProviderServer;
  const makeClient = useScriptedProvider((current) => ({ server } = current));

  describe('request shape', () => {
    it('sends exactly the four protocol headers, the API key, and a JSON body', async () => {
      const { client } = makeClient();
      server.reply(json(201, { id: 'x' }));
      await expect(client.call({ ...createWithKey, body: { externalID: 'ext-1', product: 'Gold plan – é' } })).resolves.toEqual({ id: 'x' });
      const [req] = server.requests;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v2/processing/invoices');
      expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(req.headers['cache-control']).toBe('no-cache');
      expect(req.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
      // Each once: no second content type (axios adds a form one to a POST that has none of its own).
      expect([...req.headerNames].sort()).toEqual(
        ['accept', 'authorization', 'cache-control', 'connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-request-id'],
      );
      expect(JSON.parse(req.body)).toEqual({ externalID: 'ext-1', product: 'Gold plan – é' });
    });

    it('sends the content type on reads too, and drops undefined query values', async () => {
      const { processing } = makeClient();
      server.reply(json(200, []));
      await processing.getInvoiceEvents('inv1', { limit: 10 });
      expect(server.requests[0].url).toBe('/v2/processing/invoices/inv1/events?limit=10');
      expect(server.requests[0].headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('uses a fresh X-Request-ID for every request and every retry', async () => {
      const { client } = makeClient();
      server.reply(json(503), json(503), json(200, {}), json(200, {}));
      await client.call(read);
      await client.call(read);
      const ids = server.requests.map((r) => r.headers['x-request-id']);
      expect(ids).toHaveLength(4);
      expect(new Set(ids).size).toBe(4);
      // The provider takes at most 32 characters.
      for (const id of ids) expect(String(id).length).toBeLessThanOrEqual(32);
    });

    it('URL-encodes path parameters so an id cannot change the path', async () => {
      const { processing, wallet } = makeClient();
      server.reply(json(200, {}), json(200, []));
      await processing.getPayment('a/b?c', '1#2');
      await wallet.getWithdrawalEvents('w 1', { limit: 5, eventCursor: 7 });
      expect(server.requests.map((r) => r.url)).toEqual([
        '/v2/processing/invoices/a%2Fb%3Fc/payments/1%232',
        '/wallet/v0/withdrawals/w%201/events?limit=5&eventCursor=7',
      ]);
    });

    it('keeps a path prefix of the base URL', async () => {
      const { processing } = makeClient({}, `${server.url}/provider/api`);
      await processing.getCustomer('c1');
      expect(server.requests[0].url).toBe('/provider/api/v2/processing/customers/c1');
    });

    it('authorizes createPayment with the invoice access token on the v1 path', async () => {
      const { processing } = makeClient();
      server.reply(json(201, { id: '1' }));
      await processing.createPayment('inv1', 'invoice-token-xyz', {
        flow: { type: 'PaymentFlowInstant' },
        payer: { payerType: 'CustomerPayer', customerID: 'c1' },
        externalID: 'pay-1',
      });
      expect(server.requests[0].url).toBe('/v1/processing/invoices/inv1/payments');
      expect(server.requests[0].headers.authorization).toBe('Bearer invoice-token-xyz');
    });
  });

  describe('error classification', () => {
    it.each([
      [400, { code: 'invalidShopID', message: 'Shop not found' }, 'invalid_request', { code: 'invalidShopID', providerMessage: 'Shop not found' }],
      [
        400,
        { errorType: 'InvalidResourceToken', name: 'resource', description: 'Specified resource token is invalid' },
        'invalid_request',
        { code: 'InvalidResourceToken', providerMessage: 'resource: Specified resource token is invalid' },
      ],
      [401, undefined, 'unauthorized', {}],
      [403, undefined, 'unauthorized', {}],
      [404, { message: 'Invoice not found' }, 'not_found', { providerMessage: 'Invoice not found' }],
      [404, undefined, 'not_found', {}],
      [
        409,
        { externalID: 'ext-1', id: 'inv9', message: "This 'externalID' has been used by another request" },
        'conflict',
        { externalID: 'ext-1', conflictingId: 'inv9' },
      ],
      [422, { message: 'Destination unauthorized' }, 'business_rule', { providerMessage: 'Destination unauthorized' }],
      [429, { message: 'Too many requests' }, 'unexpected', {}],
      [302, undefined, 'unexpected', {}],
    ])('HTTP %i %j → %s, not retried', async (status, body, kind, fields) => {
      const { client } = makeClient();
      server.byDefault(json(status, body));
      const error = await caught(client.call(createWithoutKey));
      expect(error.kind).toBe(kind);
      expect(error.httpStatus).toBe(status);
      expect(error).toMatchObject(fields);
      expect(error.operation).toBe('createPaymentResource');
      expect(error.message).toContain('createPaymentResource');
      expect(error.message).toContain(String(status));
      expect(server.requests).toHaveLength(1);
    });

    it('says which refusals are certain not to have been applied', async () => {
      const { client } = makeClient();
      server.reply(json(400, { code: 'invalidRequest', message: 'x' }), json(429), json(302), json(504));
      expect((await caught(client.call(createWithoutKey))).isDefinitelyNotApplied).toBe(true);
      const tooMany = await caught(client.call(createWithoutKey));
      expect([tooMany.isDefinitelyNotApplied, tooMany.isTransient]).toEqual([true, true]);
      expect((await caught(client.call(createWithoutKey))).isOutcomeUnknown).toBe(true);
      const gatewayTimeout = await caught(client.call(createWithoutKey));
      expect([gatewayTimeout.kind, gatewayTimeout.isOutcomeUnknown, gatewayTimeout.isTransient]).toEqual(['unknown_outcome', true, true]);
    });

    it.each([500, 502, 504])('HTTP %i is an unknown outcome', async (status) => {
      const { client } = makeClient();
      server.byDefault(json(status));
      expect((await caught(client.call(createWithoutKey))).kind).toBe('unknown_outcome');
    });

    it.each([
      ['a body that is not JSON', raw(200, '<html>ok</html>')],
      ['an empty body', raw(201, '')],
      ['an array where an object is expected', json(200, [])],
      ['null', raw(200, 'null')],
    ])('a 2xx with %s is an unknown outcome (the effect happened, the result is lost)', async (_label, reply) => {
      const { client } = makeClient();
      server.reply(reply);
      const error = await caught(client.call(createWithoutKey));
      expect(error.kind).toBe('unknown_outcome');
      expect(server.requests).toHaveLength(1);
    });
  });
});
