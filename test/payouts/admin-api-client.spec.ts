import { AxiosError, AxiosHeaders, InternalAxiosRequestConfig } from 'axios';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AdminApiClient, AdminApiError, isSafeToRetry } from '../../src/payouts/cli/admin-api.client';

type Handler = (request: IncomingMessage, response: ServerResponse, attempt: number) => void;

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
}

const BATCH = { id: '00000000-0000-4000-8000-000000000001', total: 1, counts: { pending: 1, processing: 0, succeeded: 0, failed: 0 }, createdAt: '2027-01-01T00:00:00.000Z' };
const ITEMS = [{ destinationId: '00000000-0000-4000-8000-000000000002', amount: 100, currency: 'RUB' }];

/** The import's HTTP client against a scripted server: what it repeats, how often, and what it never repeats. */
describe('the payout import client: retries, backoff and timeout', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let seen: Seen[];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method as string, url: request.url as string, key: request.headers['idempotency-key'] as string | undefined });
      request.resume();
      request.on('end', () => handler(request, response, seen.length));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    seen = [];
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The client's timeout: long enough for the in-process server to answer on a busy machine; the hanging tries wait it out. */
  const TIMEOUT_MS = 2_000;
  const client = () => new AdminApiClient(url, 'token', { timeoutMs: TIMEOUT_MS, retries: 3, retryDelayMs: 20 });
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };

  it('repeats a read after 503s, waiting longer each time, until it is answered', async () => {
    const times: number[] = [];
    handler = (_request, response, attempt) => {
      times.push(Date.now());
      if (attempt < 3) json(response, 503, { statusCode: 503, message: 'database unavailable' });
      else json(response, 200, BATCH);
    };
    expect(await client().getBatch(BATCH.id)).toEqual(BATCH);
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET']);
    // Exponential backoff: 20 ms, then 40 ms (plus jitter).
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(18);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(38);
  });

  it('repeats a POST that carries an Idempotency-Key after a dropped connection, with the same key', async () => {
    handler = (request, response, attempt) => {
      if (attempt === 1) request.socket.destroy();
      else json(response, 202, BATCH);
    };
    expect(await client().createBatch(ITEMS, 'import-key-1')).toEqual(BATCH);
    expect(seen).toEqual([
      { method: 'POST', url: '/api/v1/payouts/batches', key: 'import-key-1' },
      { method: 'POST', url: '/api/v1/payouts/batches', key: 'import-key-1' },
    ]);
  });

  it('repeats a read that timed out, and gives up with a clear message when every try times out', async () => {
    handler = (_request, response, attempt) => {
      if (attempt > 1) json(response, 200, BATCH);
    };
    expect(await client().getBatch(BATCH.id)).toEqual(BATCH);
    expect(seen).toHaveLength(2);

    seen = [];
    handler = () => undefined;
    const error = await client()
      .getBatch(BATCH.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as AdminApiError).message).toBe(`GET /api/v1/payouts/batches/${BATCH.id}: the daemon at ${url} did not answer within ${TIMEOUT_MS} ms`);
    expect(seen).toHaveLength(4);
  });

  it('never repeats a refusal (4xx), and says what the daemon said', async () => {
    handler = (_request, response) => json(response, 422, { statusCode: 422, message: ['items.0.currency must be RUB', 'items.1.amount too big'] });
    const error = await client()
      .createBatch(ITEMS, 'import-key-2')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, message: 'POST /api/v1/payouts/batches answered 422: items.0.currency must be RUB; items.1.amount too big' });
    expect(seen).toHaveLength(1);
  });

  it('retries only reads and POSTs with an Idempotency-Key, and only transient failures', () => {
    const failure = (method: string, headers: Record<string, string>, status?: number, code = 'ECONNRESET') => {
      const config = { method, headers: AxiosHeaders.from(headers) } as InternalAxiosRequestConfig;
      const response = status === undefined ? undefined : { status, statusText: '', headers: {}, config, data: {} };
      return new AxiosError('failed', status === undefined ? code : undefined, config, {}, response);
    };
    expect(isSafeToRetry(failure('get', {}))).toBe(true);
    expect(isSafeToRetry(failure('get', {}, 503))).toBe(true);
    expect(isSafeToRetry(failure('get', {}, 429))).toBe(true);
    expect(isSafeToRetry(failure('get', {}, undefined, 'ECONNABORTED'))).toBe(true);
    expect(isSafeToRetry(failure('post', { 'Idempotency-Key': 'k' }))).toBe(true);
    expect(isSafeToRetry(failure('post', { 'Idempotency-Key': 'k' }, 502))).toBe(true);
    expect(isSafeToRetry(failure('post', {}))).toBe(false);
    expect(isSafeToRetry(failure('post', {}, 503))).toBe(false);
    expect(isSafeToRetry(failure('get', {}, 400))).toBe(false);
    expect(isSafeToRetry(failure('post', { 'Idempotency-Key': 'k' }, 409))).toBe(false);
  });
});
