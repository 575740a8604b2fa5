import { ProviderError } from '../../src/gateway/provider-error';
import { CARDS } from '../support/test-cards';
import { caught } from './support/gateway-harness';
import { API_KEY, CapturingLogger, createWithKey, createWithoutKey, read, useScriptedProvider } from './support/scripted-client-harness';
import { json, reset, ScriptedProviderServer } from './support/scripted-provider.server';

describe('ProviderHttpClient against a scripted local server', () => {
  let server: ScriptedProviderServer;
  let logger: CapturingLogger;
  const makeClient = useScriptedProvider((current) => ({ server, logger } = current));

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
      expect(logger.lines.join('\n')).not.toContain(CARDS.success);
    });
  });
});
