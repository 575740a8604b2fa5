import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../../support/wait';

/** One POST the receiver got, with the body bytes exactly as they arrived. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The parsed body (any, so tests can read payload fields directly). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** The status the receiver answered with. */
  answered: number;
  at: number;
}

/** Decides the status for each request; the default accepts everything with 200. */
export type Responder = (request: Omit<ReceivedWebhook, 'answered'>) => number | Promise<number>;

/** A merchant endpoint for tests: records every delivery and answers as told. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private responder: Responder = () => 200;

  private readonly server: Server;
  private address = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(rawBody.toString('utf8'));
        } catch {
          json = undefined;
        }
        const request = { path: req.url ?? '', headers: req.headers, rawBody, json, at: Date.now() };
        void Promise.resolve(this.responder(request)).then((status) => {
          this.received.push({ ...request, answered: status });
          res.statusCode = status;
          res.end();
        });
      });
    });
  }

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(port, '127.0.0.1', resolve));
    receiver.address = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
    return receiver;
  }

  /** Where the sandbox should POST. */
  get url(): string {
    return this.address;
  }

  answerWith(responder: Responder): void {
    this.responder = responder;
  }

  /** Accepted deliveries (answered 200), in arrival order. */
  accepted(): ReceivedWebhook[] {
    return this.received.filter((r) => r.answered === 200);
  }

  /** Waits until `done` holds for what was received so far. */
  async waitFor(done: (received: ReceivedWebhook[]) => boolean, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    const received = await waitFor(async () => this.received, done, { timeoutMs, everyMs: 5, failOnTimeout: false });
    if (!done(received)) {
      throw new Error(`webhooks not received in ${timeoutMs} ms; got ${JSON.stringify(received.map((r) => [r.json?.eventType, r.answered]))}`);
    }
    return received;
  }

  /** Waits until the accepted deliveries include every event type given (in any order). */
  async waitForTypes(types: string[], timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    await this.waitFor((received) => types.every((t) => received.some((r) => r.answered === 200 && r.json?.eventType === t)), timeoutMs);
    return this.accepted();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
