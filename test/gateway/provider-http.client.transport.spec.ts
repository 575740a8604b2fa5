import { inspect } from 'node:util';
import { ProviderError } from '../../src/gateway/provider-error';
import { freePort } from '../support/daemon';
import { waitFor } from '../support/wait';
import { CARDS } from '../support/test-cards';
import { caught } from './support/gateway-harness';
import { API_KEY, createWithoutKey, read, useScriptedProvider } from './support/scripted-client-harness';
import { after, Gate, hang, json, reset, ScriptedProviderServer } from './support/scripted-provider.server';

/**
 * The timeout of the tests about timeouts: long enough that a busy machine still connects, sends the request and has
 * the scripted server (in this process) read it before the timer fires (the deadline runs from before the connect).
 * A timer never fires early, but may fire late: a call bounded by the timeout ends within several of them on a busy
 * machine, where an unbounded one would never end (the server never answers): the bound only tells those apart.
 */
const TIMEOUT_MS = 2_000;
const BOUND_MS = 15 * TIMEOUT_MS;

describe('ProviderHttpClient against a scripted local server', () => {
  let server: ScriptedProviderServer;
  const makeClient = useScriptedProvider((current) => ({ server } = current));

  describe('transport failures', () => {
    it('times out after providerTimeoutMs with an unknown outcome and no retry of a create without externalID', async () => {
      const { client, metrics } = makeClient({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
      server.byDefault(hang);
      const started = Date.now();
      const error = await caught(client.call(createWithoutKey));
      const elapsed = Date.now() - started;
      expect([error.kind, error.networkCode, error.attempts]).toEqual(['unknown_outcome', 'ETIMEDOUT', 1]);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(elapsed).toBeLessThan(BOUND_MS);
      await waitFor(async () => server.requests.length, (n) => n >= 1, { what: 'the request reached the server' });
      expect(server.requests).toHaveLength(1);
      expect(await metrics.render()).toContain('billing_provider_requests_total{operation="createPaymentResource",result="unknown_outcome"} 1');
    });

    it('bounds the whole exchange, even when the provider keeps the socket busy', async () => {
      const { client } = makeClient({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
      // Headers at once, then a byte every 50 ms: never idle long enough for a socket timeout, never a whole answer.
      server.reply((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
      });
      const started = Date.now();
      const error = await caught(client.call(createWithoutKey));
      expect([error.kind, error.networkCode]).toEqual(['unknown_outcome', 'ETIMEDOUT']);
      expect(Date.now() - started).toBeLessThan(BOUND_MS);
    });

    it('a connection cut in the middle of the answer is an unknown outcome, not a short answer', async () => {
      const { client } = makeClient();
      server.reply((res) => {
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': '200' });
        res.write('{"id":"inv1","status":');
        setImmediate(() => res.socket?.destroy());
      });
      const error = await caught(client.call(createWithoutKey));
      expect([error.kind, error.networkCode]).toEqual(['unknown_outcome', 'ECONNRESET']);
      expect(server.requests).toHaveLength(1);
    });

    it('stops reading an answer larger than 10 MB and reports an unknown outcome', async () => {
      const { client } = makeClient();
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      server.reply((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"inv1","pad":"');
        let sent = 0;
        const more = () => {
          while (sent < 12 && !res.destroyed && res.write(chunk)) sent++;
          if (sent < 12 && !res.destroyed) res.once('drain', () => (sent++, more()));
          else res.end('"}');
        };
        more();
      });
      const error = await caught(client.call({ ...createWithoutKey, idempotent: false }));
      expect([error.kind, error.networkCode]).toEqual(['unknown_outcome', 'ERR_BAD_RESPONSE']);
    });

    it('retries a timed-out read and succeeds', async () => {
      const { client } = makeClient({ PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
      server.reply(hang, json(200, { id: 'inv1' }));
      await expect(client.call(read)).resolves.toEqual({ id: 'inv1' });
      expect(server.requests).toHaveLength(2);
    });

    it('reports a refused connection as not_executed after its retries', async () => {
      const { client } = makeClient({}, `http://127.0.0.1:${await freePort()}`);
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
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '2' });
      // Each answer takes long enough that the two requests of a wave are at the server together, however busy the machine.
      server.byDefault(after(250, json(200, {})));
      await Promise.all(Array.from({ length: 7 }, () => client.call(read)));
      expect(server.requests).toHaveLength(7);
      expect(server.maxInFlight).toBe(2);
    });

    it('does not hold a slot while waiting to retry', async () => {
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '1' }, server.url, { maxRetries: 1, initialDelayMs: 2_000, maxDelayMs: 2_000 });
      server.reply(json(503)).byDefault(json(200, {}));
      const retried = client.call(read);
      await waitFor(async () => server.requests.length, (n) => n === 1, { what: 'the first attempt answered 503' });
      await client.call({ ...read, operation: 'getCustomer', path: '/v2/processing/customers/c1' });
      await retried;
      // The second call ran during the first one's backoff instead of queueing behind its retry.
      expect(server.requests.map((r) => r.url)).toEqual(['/v2/processing/invoices/inv1', '/v2/processing/customers/c1', '/v2/processing/invoices/inv1']);
    });

    it('bounds the wait for a slot: past 64 waiting calls the next one fails at once, with nothing sent', async () => {
      const { client } = makeClient({ PROVIDER_MAX_CONCURRENCY: '1' });
      // The server holds every request until the gate opens: the one slot stays taken for as long as the test needs.
      const gate = new Gate(json(200, {}));
      server.byDefault(gate.hold);
      // One call in flight and 64 waiting fill the queue.
      const queued = Array.from({ length: 65 }, () => client.call(read).then(() => 'ok', (e: unknown) => e));
      await waitFor(async () => server.requests.length, (n) => n === 1, { what: 'the first call held at the server' });
      let refused: unknown = undefined;
      void client.call(read).then(
        () => (refused = 'answered'),
        (e: unknown) => (refused = e),
      );
      // "At once": it fails while the slot is still taken, so it did not wait for one.
      await waitFor(async () => refused, (r) => r !== undefined, { timeoutMs: 10_000, what: 'the call beyond the queue refused while the slot is taken' });
      expect(refused).toBeInstanceOf(ProviderError);
      expect(refused).toMatchObject({ kind: 'not_executed', networkCode: 'QUEUE_FULL', isDefinitelyNotApplied: true });
      expect((refused as Error).message).toContain('queue is full');
      expect(server.requests).toHaveLength(1);
      gate.open();
      const settled = await Promise.all(queued);
      expect(settled.every((r) => r === 'ok')).toBe(true);
      expect(server.requests).toHaveLength(65);
    });
  });

  describe('secrets', () => {
    it('keeps the credential, tokens and card data out of errors, however they are printed', async () => {
      const { client, processing } = makeClient();
      server.reply(
        json(400, { code: 'invalidRequest', message: `Invalid cardNumber checksum for ${CARDS.expired}` }),
        json(401),
        reset,
      );
      const errors = [
        await caught(client.call({ ...createWithoutKey, body: { paymentTool: { cardNumber: CARDS.expired, cvv: '123' } } })),
        await caught(
          processing.createPayment('inv1', 'secret-invoice-token-123', { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID: 'c' } }),
        ),
        await caught(client.call({ ...createWithoutKey, body: { paymentTool: { cardNumber: CARDS.expired, cvv: '123' } } })),
      ];
      expect(errors.map((e) => e.kind)).toEqual(['invalid_request', 'unauthorized', 'unknown_outcome']);
      for (const error of errors) {
        const printed = [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error), JSON.stringify(Object.entries(error))].join('\n');
        for (const secret of [API_KEY, 'secret-invoice-token-123', CARDS.expired, '"cvv"', 'Bearer']) {
          expect(printed).not.toContain(secret);
        }
      }
      expect(errors[0].message).toContain('[invalidRequest]');
      expect(errors[0].message).toContain('Invalid cardNumber checksum');
    });
  });
});
