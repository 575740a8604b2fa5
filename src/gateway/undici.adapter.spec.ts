import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { Agent } from 'undici';
import { ExchangeDeadlineError } from './exchange-deadline.error';
import { undiciAdapter } from './undici.adapter';

/** A server that records each request's path and holds those under /held until the test answers them. */
async function recordingServer() {
  const paths: string[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    if (req.url?.startsWith('/held')) held.push(res);
    else if (req.url?.startsWith('/cut')) {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
      setImmediate(() => res.socket?.destroy());
    } else res.end(`{"path":"${req.url}"}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, paths, held };
}

const FIXED = { 'Content-Type': 'application/json; charset=utf-8' };

describe('undiciAdapter', () => {
  let setup: Awaited<ReturnType<typeof recordingServer>>;
  let dispatcher: Agent;
  const client = (timeoutMs: number, maxResponseBytes = 1024) =>
    new axios.Axios({
      baseURL: setup.url,
      validateStatus: () => true,
      adapter: undiciAdapter({ dispatcher, timeoutMs, maxResponseBytes, fixedHeaders: FIXED }),
    });

  beforeEach(async () => {
    setup = await recordingServer();
    // One connection: a second call waits for the first to end.
    dispatcher = new Agent({ connections: 1, pipelining: 1 });
  });
  afterEach(async () => {
    await dispatcher.destroy();
    setup.server.closeAllConnections();
    await new Promise((resolve) => setup.server.close(resolve));
  });

  it('answers the status and the body as text', async () => {
    const response = await client(5_000).request<string>({ url: '/a?x=1', method: 'get' });
    expect([response.status, response.data]).toEqual([200, '{"path":"/a?x=1"}']);
  });

  it('never writes a request whose deadline passed while it waited for a connection', async () => {
    const holding = client(0).request({ url: '/held', method: 'post', data: '{}' });
    for (let i = 0; setup.held.length === 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    expect(setup.held).toHaveLength(1);

    // Queued behind the held call: its deadline passes before the connection is free.
    await expect(client(100).request({ url: '/queued', method: 'post', data: '{}' })).rejects.toBeInstanceOf(ExchangeDeadlineError);
    setup.held[0].end('{}');
    await expect(holding).resolves.toMatchObject({ status: 200 });
    // The queue is first in, first out: had the expired call been written, it would have been before this one.
    await expect(client(5_000).request({ url: '/after', method: 'get' })).resolves.toMatchObject({ status: 200 });
    expect(setup.paths).toEqual(['/held', '/after']);
  });

  it('ends a call held past its deadline with ExchangeDeadlineError', async () => {
    await expect(client(100).request({ url: '/held', method: 'get' })).rejects.toMatchObject({ code: 'ETIMEDOUT', deadlineMs: 100 });
  });

  it('reports a connection cut in the middle of the answer as ECONNRESET, not as a short answer', async () => {
    await expect(client(5_000).request({ url: '/cut', method: 'post', data: '{}' })).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('ends an answer longer than the limit', async () => {
    await expect(client(5_000, 8).request({ url: '/long-enough-path', method: 'get' })).rejects.toMatchObject({ code: 'ERR_BAD_RESPONSE' });
  });

  it('reports a refused connection with its system code', async () => {
    const closed = await recordingServer();
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const refused = new axios.Axios({ baseURL: url, adapter: undiciAdapter({ dispatcher, timeoutMs: 5_000, maxResponseBytes: 1024, fixedHeaders: FIXED }) });
    await expect(refused.request({ url: '/x', method: 'get' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
