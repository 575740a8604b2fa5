import * as net from 'node:net';
import { inspect } from 'node:util';
import { Logger, LoggerService } from '@nestjs/common';
import { MetricsService } from '../../src/common/metrics/metrics.service';
import { RuntimeSettings } from '../../src/config/runtime-settings';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { ProviderError } from '../../src/gateway/provider-error';
import { ProviderHttpClient, ProviderRequest } from '../../src/gateway/provider-http.client';
import { WalletGateway } from '../../src/gateway/wallet.gateway';
import { testConfig } from '../support/test-config';
import { after, hang, json, raw, reset, ScriptedProviderServer } from './support/scripted-provider.server';

const API_KEY = 'test-api-key-do-not-leak-7f3c';
const FAST_RETRY = { maxRetries: 3, initialDelayMs: 5, maxDelayMs: 20 };

/** Collects what the client logs, to prove no secret reaches a log line. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown): void {
    this.lines.push(String(message));
  }
  error(message: unknown): void {
    this.lines.push(String(message));
  }
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

async function caught(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('ProviderHttpClient against a scripted local server', () => {
  let server: ScriptedProviderServer;
  let logger: CapturingLogger;
  const clients: ProviderHttpClient[] = [];

  function makeClient(env: Record<string, string> = {}, url = server.url, retry = FAST_RETRY) {
    const metrics = new MetricsService();
    const client = new ProviderHttpClient(
      testConfig({ PROVIDER_URL: 'http://provider.invalid', PROVIDER_API_KEY: API_KEY, PROVIDER_SHOP_ID: 'shop', PROVIDER_TIMEOUT_MS: '300', ...env }),
      new RuntimeSettings('unused', url),
      metrics,
      retry,
    );
    clients.push(client);
    return { client, metrics, processing: new ProcessingGateway(client), wallet: new WalletGateway(client) };
  }

  const read: ProviderRequest = { operation: 'getInvoice', method: 'GET', path: '/v2/processing/invoices/inv1', idempotent: true, expect: 'object' };
  const createWithKey: ProviderRequest = {
    operation: 'createInvoice',
    method: 'POST',
    path: '/v2/processing/invoices',
    body: { externalID: 'ext-1' },
    idempotent: true,
    expect: 'object',
  };
  const createWithoutKey: ProviderRequest = {
    operation: 'createPaymentResource',
    method: 'POST',
    path: '/v2/processing/payment-resources',
    body: { paymentTool: { cardNumber: '4242424242424242' } },
    idempotent: false,
    expect: 'object',
  };

  beforeAll(async () => {
    server = await ScriptedProviderServer.start();
  });
  beforeEach(() => {
    server.clear();
    logger = new CapturingLogger();
    Logger.overrideLogger(logger);
  });
  afterEach(() => {
    clients.splice(0).forEach((c) => c.close());
  });
  afterAll(async () => {
    await server.close();
  });

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

  describe('retries', () => {
    it('retries 503 (not executed) even for a create without externalID, and returns the result', async () => {
      const { client, metrics } = makeClient();
      server.reply(json(503), json(503), json(201, { paymentToolToken: 't' }));
      await expect(client.call(createWithoutKey)).resolves.toEqual({ paymentToolToken: 't' });
      expect(server.requests).toHaveLength(3);
      const rendered = await metrics.render();
      expect(rendered).toContain('billing_provider_requests_total{operation="createPaymentResource",result="not_executed"} 2');
      expect(rendered).toContain('billing_provider_requests_total{operation="createPaymentResource",result="ok"} 1');
      expect(rendered).toContain('billing_provider_retries_total{operation="createPaymentResource",result="not_executed"} 2');
      expect(rendered).toMatch(/billing_provider_request_duration_seconds_count\{operation="createPaymentResource",result="ok"\} 1/);
    });

    it('gives up after 3 retries on a persistent 503 and throws not_executed', async () => {
      const { client } = makeClient();
      server.byDefault(json(503));
      const error = await caught(client.call(createWithoutKey));
      expect([error.kind, error.attempts, error.isDefinitelyNotApplied]).toEqual(['not_executed', 4, true]);
      expect(server.requests).toHaveLength(4);
    });

    it('retries an unknown outcome of a read and of a create with externalID', async () => {
      const { client } = makeClient();
      server.reply(json(504), reset, json(200, { id: 'inv1' }));
      await expect(client.call(read)).resolves.toEqual({ id: 'inv1' });
      server.reply(reset, json(504), json(201, { id: 'inv2' }));
      await expect(client.call(createWithKey)).resolves.toEqual({ id: 'inv2' });
      expect(server.requests).toHaveLength(6);
      // The retry repeats the same body, so the provider can recognise the externalID.
      expect(new Set(server.requests.slice(3).map((r) => r.body)).size).toBe(1);
    });

    it('never retries an unknown outcome of a create without externalID', async () => {
      const { client } = makeClient();
      server.reply(reset);
      const error = await caught(client.call(createWithoutKey));
      expect([error.kind, error.networkCode, error.attempts]).toEqual(['unknown_outcome', 'ECONNRESET', 1]);
      expect(server.requests).toHaveLength(1);
    });

    it('throws the last unknown outcome when retries run out: it stays unknown', async () => {
      const { client } = makeClient();
      server.byDefault(json(504));
      const error = await caught(client.call(createWithKey));
      expect([error.kind, error.attempts]).toEqual(['unknown_outcome', 4]);
    });

    it('keeps a write unknown when a retry after an unknown outcome gets a definite refusal', async () => {
      const { client } = makeClient();
      // The first attempt may have created the payment; the retry's 400 may be caused by it.
      server.reply(json(504), json(400, { code: 'invoicePaymentPending', message: 'Invoice payment pending' }));
      const error = await caught(client.call({ ...createWithKey, operation: 'createPayment' }));
      expect(error.kind).toBe('unknown_outcome');
      expect(error.isDefinitelyNotApplied).toBe(false);
      expect(error.code).toBe('invoicePaymentPending');
      expect(error.cause).toBeInstanceOf(ProviderError);
      expect(server.requests).toHaveLength(2);
    });

    it('keeps a read definite when a retry after an unknown outcome gets 404', async () => {
      const { client } = makeClient();
      server.reply(json(504), json(404, { message: 'Invoice not found' }));
      expect((await caught(client.call(read))).kind).toBe('not_found');
    });

    it('never retries a 4xx', async () => {
      const { client } = makeClient();
      server.byDefault(json(409, { externalID: 'ext-1' }));
      await caught(client.call(createWithKey));
      server.byDefault(json(401));
      await caught(client.call(read));
      expect(server.requests).toHaveLength(2);
    });

    it('waits longer before each retry (exponential backoff)', async () => {
      const { client } = makeClient({}, server.url, { maxRetries: 3, initialDelayMs: 40, maxDelayMs: 1000 });
      server.byDefault(json(503));
      await caught(client.call(read));
      const gaps = server.requests.slice(1).map((r, i) => r.receivedAt - server.requests[i].receivedAt);
      // 40, 80, 160 ms each ±25%.
      expect(gaps[0]).toBeGreaterThanOrEqual(25);
      expect(gaps[1]).toBeGreaterThanOrEqual(55);
      expect(gaps[2]).toBeGreaterThanOrEqual(115);
      expect(gaps[2]).toBeGreaterThan(gaps[0]);
    });

    it('logs each retry without secrets', async () => {
      const { client } = makeClient();
      server.reply(json(503));
      await client.call(createWithoutKey);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(/createPaymentResource failed: not_executed \(HTTP 503\).*retry 1 of 3/);
      expect(logger.lines.join('\n')).not.toContain(API_KEY);
      expect(logger.lines.join('\n')).not.toContain('4242424242424242');
    });
  });

  describe('transport failures', () => {
    it('times out after providerTimeoutMs with an unknown outcome and no retry of a create without externalID', async () => {
      const { client, metrics } = makeClient({ PROVIDER_TIMEOUT_MS: '200' });
      server.byDefault(hang);
      const started = Date.now();
      const error = await caught(client.call(createWithoutKey));
      const elapsed = Date.now() - started;
      expect([error.kind, error.networkCode]).toEqual(['unknown_outcome', 'ETIMEDOUT']);
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(1500);
      expect(server.requests).toHaveLength(1);
      expect(await metrics.render()).toContain('billing_provider_requests_total{operation="createPaymentResource",result="unknown_outcome"} 1');
    });

    it('bounds the whole exchange, even when the provider keeps the socket busy', async () => {
      const { client } = makeClient({ PROVIDER_TIMEOUT_MS: '200' });
      // Headers at once, then a byte every 50 ms: never idle long enough for a socket timeout.
      server.reply((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
      });
      const started = Date.now();
      const error = await caught(client.call(createWithoutKey));
      expect(error.kind).toBe('unknown_outcome');
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('retries a timed-out read and succeeds', async () => {
      const { client } = makeClient({ PROVIDER_TIMEOUT_MS: '150' });
      server.reply(hang, json(200, { id: 'inv1' }));
      await expect(client.call(read)).resolves.toEqual({ id: 'inv1' });
      expect(server.requests).toHaveLength(2);
    });

    it('reports a refused connection as not_executed after its retries', async () => {
      const { client } = makeClient({}, `http://127.0.0.1:${await closedPort()}`);
      const error = await caught(client.call(createWithoutKey));
      expect([error.kind, error.networkCode, error.attempts]).toEqual(['not_executed', 'ECONNREFUSED', 4]);
      expect(error.isDefinitelyNotApplied).toBe(true);
    });

    it('reports an unresolvable host as not_executed', async () => {
      const { client } = makeClient({}, 'http://provider.invalid', { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1 });
      const error = await caught(client.call(read));
      expect(error.kind).toBe('not_executed');
    });

    it('does not send a credential that is not a valid header value, and does not echo it', async () => {
      const { processing } = makeClient();
      const error = await caught(
        processing.createPayment('inv1', 'token-part-one\r\nX-Injected: 1', { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID: 'c' }, externalID: 'p' }),
      );
      expect([error.kind, error.isDefinitelyNotApplied]).toEqual(['unexpected', true]);
      expect(error.message).not.toContain('token-part-one');
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('concurrency cap', () => {
    it('never has more than providerMaxConcurrency requests in flight', async () => {
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '2', PROVIDER_TIMEOUT_MS: '2000' });
      server.byDefault(after(60, json(200, {})));
      await Promise.all(Array.from({ length: 7 }, () => client.call(read)));
      expect(server.requests).toHaveLength(7);
      expect(server.maxInFlight).toBe(2);
    });

    it('does not hold a slot while waiting to retry', async () => {
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '1', PROVIDER_TIMEOUT_MS: '2000' }, server.url, {
        maxRetries: 1,
        initialDelayMs: 300,
        maxDelayMs: 300,
      });
      server.reply(json(503)).byDefault(json(200, {}));
      const retried = client.call(read);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await client.call({ ...read, operation: 'getCustomer' });
      // The second call ran during the first one's backoff instead of queueing behind it.
      expect(Date.now() - started).toBeLessThan(200);
      await retried;
    });

    it('bounds the wait for a slot: past 64 waiting calls the next one fails at once, with nothing sent', async () => {
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '1', PROVIDER_TIMEOUT_MS: '2000' });
      server.byDefault(after(100, json(200, {})));
      // One call in flight and 64 waiting fill the queue.
      const queued = Array.from({ length: 65 }, () => client.call(read).then(() => 'ok', (e: unknown) => e));
      await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      const refused = await client.call(read).then(() => undefined, (e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(50);
      expect(refused).toBeInstanceOf(ProviderError);
      expect(refused).toMatchObject({ kind: 'not_executed', networkCode: 'QUEUE_FULL', isDefinitelyNotApplied: true });
      expect((refused as Error).message).toContain('queue is full');
      const settled = await Promise.all(queued);
      expect(settled.every((r) => r === 'ok')).toBe(true);
      expect(server.requests).toHaveLength(65);
    });
  });

  describe('secrets', () => {
    it('keeps the credential, tokens and card data out of errors, however they are printed', async () => {
      const { client, processing } = makeClient();
      server.reply(
        json(400, { code: 'invalidRequest', message: 'Invalid cardNumber checksum for 4000000000000069' }),
        json(401),
        reset,
      );
      const errors = [
        await caught(client.call({ ...createWithoutKey, body: { paymentTool: { cardNumber: '4000000000000069', cvv: '123' } } })),
        await caught(
          processing.createPayment('inv1', 'secret-invoice-token-123', { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID: 'c' } }),
        ),
        await caught(client.call({ ...createWithoutKey, body: { paymentTool: { cardNumber: '4000000000000069', cvv: '123' } } })),
      ];
      expect(errors.map((e) => e.kind)).toEqual(['invalid_request', 'unauthorized', 'unknown_outcome']);
      for (const error of errors) {
        const printed = [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error), JSON.stringify(Object.entries(error))].join('\n');
        for (const secret of [API_KEY, 'secret-invoice-token-123', '4000000000000069', '"cvv"', 'Bearer']) {
          expect(printed).not.toContain(secret);
        }
      }
      expect(errors[0].message).toContain('[invalidRequest]');
      expect(errors[0].message).toContain('Invalid cardNumber checksum');
    });
  });
});
