import { inspect } from 'node:util';
import type { ProviderOperation } from '../../src/gateway/provider-operation';
import { PROVIDER_OPERATIONS } from '../../src/gateway/provider-operation';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { freePort } from '../support/daemon';
import type { FaultKind, Ledger, LoggedRequest, SandboxControl } from '../support/sandbox-control';
import { CARDS } from '../support/test-cards';
import { sleep, waitFor } from '../support/wait';
import { caught, gatewaysFor, Harness, SANDBOX_KEY, useGatewaySandbox } from './support/gateway-harness';
import { casesWhere, createInvoice, createPaymentResource, Gateways, OPERATION_CASES, OperationCase, tokenizeCard, tomorrow } from './support/operation-cases';

/** The id of whatever a create returned (customers and invoices come wrapped with their access token). */
function objectId(result: unknown): string {
  const r = result as { id?: string; customer?: { id: string }; invoice?: { id: string }; token?: string; paymentToolToken?: string; payload?: string };
  const id = r.id ?? r.customer?.id ?? r.invoice?.id;
  if (id === undefined) throw new Error(`no id in ${JSON.stringify(result)}`);
  return id;
}

function expectProtocolHeaders(request: LoggedRequest, credential: string): void {
  expect(request.headers.authorization).toBe(`Bearer ${credential}`);
  expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(request.headers['cache-control']).toBe('no-cache');
  expect(request.headers['x-request-id']).toMatch(/^.{1,32}$/);
}

describe('Provider gateways against the sandbox, over HTTP: every operation', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  let gw: Harness;
  const harnesses: Harness[] = [];
  useGatewaySandbox((started) => ({ sandbox, control, gw } = started));

  /** Requests the sandbox logged for `operation` since `before` of them had been logged. */
  async function loggedSince(operation: ProviderOperation, before: number): Promise<LoggedRequest[]> {
    return (await control.requests(operation)).slice(before);
  }

  async function countLogged(operation: ProviderOperation): Promise<number> {
    return (await control.requests(operation)).length;
  }

  /** Money movements the call left, once asynchronous completions (binding charges) have had time to land. */
  async function settledEffects(c: OperationCase): Promise<number> {
    const count = c.effects as (ledger: Ledger) => number;
    await waitFor(() => control.ledger(), (ledger) => count(ledger) >= 1);
    await sleep(60);
    return count(await control.ledger());
  }

  function extraHarness(options: Parameters<typeof gatewaysFor>[1], url = sandbox.url): Harness {
    const h = gatewaysFor(url, options);
    harnesses.push(h);
    return h;
  }

  afterAll(() => harnesses.forEach((h) => h.close()));

  it('covers every operation the gateway makes', () => {
    expect(OPERATION_CASES.map((c) => c.operation).sort()).toEqual([...PROVIDER_OPERATIONS].sort());
  });

  describe.each(OPERATION_CASES)('$operation', (c: OperationCase) => {
    it('succeeds with one request carrying the protocol headers and the right credential', async () => {
      const prepared = await c.prepare(gw);
      const before = await countLogged(c.operation);
      const result = await prepared.call(gw);
      expect(result).toEqual(expect.anything());
      const logged = await loggedSince(c.operation, before);
      expect(logged).toHaveLength(1);
      expect(logged[0].status).toBeGreaterThanOrEqual(200);
      expect(logged[0].status).toBeLessThan(300);
      expectProtocolHeaders(logged[0], prepared.credential ?? SANDBOX_KEY);
    });

    it('is refused as unauthorized under a wrong credential, without a retry', async () => {
      const prepared = await c.prepare(gw);
      let caller: Gateways = extraHarness({ apiKey: 'wrong-api-key' });
      if (c.operation === 'createPayment') {
        // createPayment does not use the API key: its credential is the invoice access token, so expire that instead.
        await control.expireTokens();
        caller = gw;
      }
      const before = await countLogged(c.operation);
      const error = await caught(prepared.call(caller));
      expect([error.kind, error.httpStatus, error.operation]).toEqual(['unauthorized', 401, c.operation]);
      expect(error.isDefinitelyNotApplied).toBe(true);
      expect(await loggedSince(c.operation, before)).toHaveLength(1);
    });

    it('retries a 503 and then succeeds, the effect applied once', async () => {
      const prepared = await c.prepare(gw);
      const before = await countLogged(c.operation);
      await control.addFault({ operation: c.operation, kind: 'unavailable', count: 1 });
      const result = await prepared.call(gw);
      expect(result).toEqual(expect.anything());
      const logged = await loggedSince(c.operation, before);
      expect(logged.map((r) => r.status)).toEqual([503, expect.any(Number)]);
      expect(logged[1].status).toBeLessThan(300);
      expect(logged[0].headers['x-request-id']).not.toBe(logged[1].headers['x-request-id']);
      if (c.effects) expect(await settledEffects(c)).toBe(1);
    });
  });

  describe.each(casesWhere('create-with-external-id'))('$operation (carries an externalID)', (c: OperationCase) => {
    it.each<FaultKind>(['timeout_after_effect', 'reset_after_effect', 'reset_before_effect'])(
      'after %s: retried with the same externalID, the same object comes back, applied once',
      async (kind) => {
        const prepared = await c.prepare(gw);
        const before = await countLogged(c.operation);
        await control.addFault({ operation: c.operation, kind, count: 1 });
        const first = await prepared.call(gw);
        const logged = await loggedSince(c.operation, before);
        expect(logged).toHaveLength(2);
        expect(logged[0].body).toEqual(logged[1].body);
        // Asking again with the same externalID names the same object: the retry did not make a second one.
        const again = await prepared.call(gw);
        expect(objectId(again)).toBe(objectId(first));
        if (c.effects) expect(await settledEffects(c)).toBe(1);
      },
    );
  });

  describe.each(casesWhere('create-without-external-id'))('$operation (no externalID)', (c: OperationCase) => {
    it.each<FaultKind>(['timeout_after_effect', 'reset_after_effect'])('after %s: unknown_outcome, not retried', async (kind) => {
      const prepared = await c.prepare(gw);
      const before = await countLogged(c.operation);
      await control.addFault({ operation: c.operation, kind, count: 1 });
      const error = await caught(prepared.call(gw));
      expect(error.kind).toBe('unknown_outcome');
      expect(error.isOutcomeUnknown).toBe(true);
      expect(error.attempts).toBe(1);
      expect(await loggedSince(c.operation, before)).toHaveLength(1);
    });
  });

  describe.each(casesWhere('read'))('$operation (a read)', (c: OperationCase) => {
    it.each<FaultKind>(['timeout_after_effect', 'reset_after_effect'])('after %s: retried and answered', async (kind) => {
      const prepared = await c.prepare(gw);
      const before = await countLogged(c.operation);
      await control.addFault({ operation: c.operation, kind, count: 1 });
      await expect(prepared.call(gw)).resolves.toEqual(expect.anything());
      expect(await loggedSince(c.operation, before)).toHaveLength(2);
    });
  });

  describe('timeouts', () => {
    // Two seconds: long enough for a busy machine to have the request logged by the sandbox (in this process) before
    // the deadline, which runs from before the connect. The answer comes four times later: the timer fires first.
    const TIMEOUT_MS = 2_000;
    const SLOW_MS = 8_000;
    let short: Harness;
    beforeEach(() => {
      short = extraHarness({ timeoutMs: TIMEOUT_MS });
    });
    // The slow requests are answered in the end (to a closed connection); wait for that, so nothing is left for the next test.
    afterEach(async () => {
      await waitFor(() => control.requests(), (logged) => logged.every((r) => r.status !== null), { timeoutMs: 2 * SLOW_MS, what: 'the slow requests answered' });
    });

    it('a create without externalID slower than providerTimeoutMs fails as unknown_outcome after one request', async () => {
      const before = await countLogged('createPaymentResource');
      await control.addFault({ operation: 'createPaymentResource', kind: 'latency', latencyMs: SLOW_MS, count: 1 });
      const started = Date.now();
      const error = await caught(createPaymentResource(short));
      expect([error.kind, error.networkCode]).toEqual(['unknown_outcome', 'ETIMEDOUT']);
      // A timer never fires early; the call ended on it, not on the answer.
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(Date.now() - started).toBeLessThan(SLOW_MS);
      expect(await loggedSince('createPaymentResource', before)).toHaveLength(1);
    });

    it('a slow read is retried and answered', async () => {
      const { invoice } = await createInvoice(gw);
      await control.addFault({ operation: 'getInvoice', kind: 'latency', latencyMs: SLOW_MS, count: 1 });
      await expect(short.processing.getInvoice(invoice.id)).resolves.toMatchObject({ id: invoice.id });
    });

    it('a slow create with externalID is retried and the invoice is made once', async () => {
      await control.addFault({ operation: 'createInvoice', kind: 'latency', latencyMs: SLOW_MS, count: 1 });
      const extId = `inv-slow-${Date.now()}`;
      const dueDate = tomorrow();
      const created = await createInvoice(short, 1_000, extId, dueDate);
      const replay = await createInvoice(short, 1_000, extId, dueDate);
      expect(replay.invoice.id).toBe(created.invoice.id);
    });
  });

  it('reports a refused connection as not_executed after 3 retries', async () => {
    const down = extraHarness({}, `http://127.0.0.1:${await freePort()}`);
    const error = await caught(down.processing.getInvoice('inv-1'));
    expect([error.kind, error.networkCode, error.attempts]).toEqual(['not_executed', 'ECONNREFUSED', 4]);
    expect(error.isDefinitelyNotApplied).toBe(true);
  });

  it('never has more calls in flight than providerMaxConcurrency', async () => {
    const capped = extraHarness({ maxConcurrency: 2 });
    const { invoice } = await createInvoice(gw);
    const before = await countLogged('getInvoice');
    await control.addFault({ operation: 'getInvoice', kind: 'latency', latencyMs: 150 });
    await Promise.all(Array.from({ length: 6 }, () => capped.processing.getInvoice(invoice.id)));
    // Two at a time: a request is sent only once all but one of those before it were answered, each no sooner than
    // 150 ms after it arrived. So the third arrives 150 ms after the first at the earliest, the fourth after the
    // second, and so on (lower bounds: they hold however slow the machine is; six at once would break them).
    const arrived = (await loggedSince('getInvoice', before)).map((r) => Date.parse(r.receivedAt)).sort((a, b) => a - b);
    expect(arrived).toHaveLength(6);
    for (let i = 0; i + 2 < arrived.length; i++) expect(arrived[i + 2] - arrived[i]).toBeGreaterThanOrEqual(149);
  });

  it('keeps API keys, tokens and card data out of every error', async () => {
    const wrongKey = extraHarness({ apiKey: 'wrong-secret-key-0042' });
    const { invoice, invoiceAccessToken } = await createInvoice(gw);
    await control.expireTokens();
    const errors = [
      await caught(wrongKey.processing.getInvoice(invoice.id)),
      await caught(
        gw.processing.createPayment(invoice.id, invoiceAccessToken.payload, {
          flow: { type: 'PaymentFlowInstant' },
          payer: { payerType: 'CustomerPayer', customerID: 'nobody' },
          externalID: 'pay-secret-test',
        }),
      ),
      await caught(
        gw.processing.createPaymentResource({
          paymentTool: { paymentToolType: 'CardData', cardNumber: CARDS.badChecksum, expDate: '12/30', cvv: '987', cardHolder: 'JOHN DOE' },
          clientInfo: { fingerprint: 'fp' },
        }),
      ),
      await caught(wrongKey.wallet.tokenizeBankCard({ type: 'BankCard', cardNumber: CARDS.success, expDate: '12/30', cvv: '987', cardHolder: 'JOHN DOE' })),
    ];
    await control.addFault({ operation: 'tokenizeBankCard', kind: 'reset_after_effect', count: 1 });
    errors.push(await caught(tokenizeCard(gw)));
    expect(errors.map((e) => e.kind)).toEqual(['unauthorized', 'unauthorized', 'invalid_request', 'unauthorized', 'unknown_outcome']);
    for (const error of errors) {
      const printed = [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error)].join('\n');
      for (const secret of ['wrong-secret-key-0042', SANDBOX_KEY, invoiceAccessToken.payload, CARDS.badChecksum, CARDS.success, '"cvv"', 'Bearer']) {
        expect(printed).not.toContain(secret);
      }
    }
  });
});
