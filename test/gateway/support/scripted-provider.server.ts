import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the scripted server received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Every header line's name as sent (lowercased, in order): `headers` folds a repeated one away. */
  headerNames: string[];
  body: string;
  receivedAt: number;
}

/** Answers one request; may also misbehave (destroy the socket, never answer). */
export type ScriptedReply = (res: http.ServerResponse, req: ReceivedRequest) => void;

export const json =
  (status: number, body?: unknown, headers: http.OutgoingHttpHeaders = {}): ScriptedReply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

export const raw =
  (status: number, text: string): ScriptedReply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(text);
  };

/** Cuts the connection without a response, after the request was read: the provider may have acted. */
export const reset: ScriptedReply = (res) => res.socket?.destroy();

/** Never answers. */
export const hang: ScriptedReply = () => undefined;

/** Answers after a delay. */
export const after =
  (ms: number, reply: ScriptedReply): ScriptedReply =>
  (res, req) => {
    setTimeout(() => reply(res, req), ms);
  };

/** Holds every request it is given until `open()`, then answers them (and any later one) with `reply`. */
export class Gate {
  private opened = false;
  private readonly held: (() => void)[] = [];

  constructor(private readonly reply: ScriptedReply) {}

  readonly hold: ScriptedReply = (res, req) => {
    if (this.opened) this.reply(res, req);
    else this.held.push(() => this.reply(res, req));
  };

  open(): void {
    this.opened = true;
    this.held.splice(0).forEach((answer) => answer());
  }
}

/**
 * A tiny local HTTP server for the client's own tests: replies come from a queue (then a default), every
 * request is recorded, and the number of requests being handled at once is tracked.
 */
export class ScriptedProviderServer {
  readonly requests: ReceivedRequest[] = [];
  maxInFlight = 0;
  /** TCP connections accepted since start. */
  connectionsAccepted = 0;
  private inFlight = 0;
  private readonly queue: ScriptedReply[] = [];
  private fallback: ScriptedReply = json(200, {});
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  static async start(): Promise<ScriptedProviderServer> {
    const s = new ScriptedProviderServer();
    s.server.on('connection', (socket) => {
      s.connectionsAccepted++;
      s.sockets.add(socket);
      socket.on('close', () => s.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** TCP connections the client currently holds open (keep-alive sockets included). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Replies for the next requests, in order; after them every request gets the default. */
  reply(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  byDefault(reply: ScriptedReply): this {
    this.fallback = reply;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      this.requests.push(received);
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          this.inFlight -= 1;
        }
      };
      res.on('close', finish);
      res.on('finish', finish);
      (this.queue.shift() ?? this.fallback)(res, received);
    });
  }
}
