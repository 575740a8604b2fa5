import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as the merchant's server saw it. */
export interface ReceivedDelivery {
  id: string;
  timestamp: number;
  body: string;
  event: { id: string; type: string; createdAt: string; actor: { type: string; id?: string; name?: string }; data: { object: Record<string, unknown>; previous?: Record<string, unknown>; error?: Record<string, unknown>; upcoming?: Record<string, unknown>; change?: Record<string, unknown> } };
  receivedAt: number;
}

/** How the receiver answers: `ok` 200, `down` 503 (after reading the body), `slow` 200 after `delayMs`. */
export type ReceiverMode = { kind: 'ok' } | { kind: 'down'; status?: number } | { kind: 'slow'; delayMs: number };

/**
 * A merchant's webhook receiver, as the README tells merchants to write one: it verifies every delivery with the
 * `standardwebhooks` package and the endpoint secret, refuses anything else with 400, and deduplicates by webhook-id.
 */
export class MerchantReceiver {
  /** Every verified delivery, in arrival order, repeats included. */
  readonly deliveries: ReceivedDelivery[] = [];
  /** Requests that failed verification (none may). */
  readonly rejected: string[] = [];
  /** Requests answered with a failure on purpose (mode `down`). */
  refusedOnPurpose = 0;
  /** The most requests this receiver had open at once (from arrival until answered or abandoned by the sender). */
  maxOpenRequests = 0;
  private openRequests = 0;
  mode: ReceiverMode = { kind: 'ok' };
  private secret: string | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<MerchantReceiver> {
    const handlers: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];
    const server = createServer((req, res) => handlers[0]?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new MerchantReceiver(server, `http://127.0.0.1:${port}${path}`);
    handlers.push((req, res) => void receiver.handle(req, res));
    return receiver;
  }

  /** The endpoint's secret, as the create answer showed it. */
  useSecret(secret: string): void {
    this.secret = secret;
  }

  /** The first delivery of each event id (what a deduplicating receiver processes). */
  unique(): ReceivedDelivery[] {
    const seen = new Map<string, ReceivedDelivery>();
    for (const d of this.deliveries) if (!seen.has(d.id)) seen.set(d.id, d);
    return [...seen.values()];
  }

  ofType(type: string): ReceivedDelivery[] {
    return this.unique().filter((d) => d.event.type === type);
  }

  /** Event ids that arrived with more than one body (must be none). */
  idsWithDifferentBodies(): string[] {
    const bodies = new Map<string, Set<string>>();
    for (const d of this.deliveries) bodies.set(d.id, (bodies.get(d.id) ?? new Set()).add(d.body));
    return [...bodies.entries()].filter(([, set]) => set.size > 1).map(([id]) => id);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.openRequests++;
    this.maxOpenRequests = Math.max(this.maxOpenRequests, this.openRequests);
    res.on('close', () => this.openRequests--);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const mode = this.mode;
    if (mode.kind === 'down') {
      this.refusedOnPurpose++;
      res.writeHead(mode.status ?? 503, { 'content-type': 'text/plain' }).end('maintenance, try later');
      return;
    }
    let event: ReceivedDelivery['event'];
    try {
      if (!this.secret) throw new Error('no secret yet');
      event = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as ReceivedDelivery['event'];
    } catch (error) {
      this.rejected.push(`${String(req.headers['webhook-id'])}: ${(error as Error).message}`);
      res.writeHead(400).end();
      return;
    }
    if (mode.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, mode.delayMs).unref());
    this.deliveries.push({ id: String(req.headers['webhook-id']), timestamp: Number(req.headers['webhook-timestamp']), body, event, receivedAt: Date.now() });
    res.writeHead(204).end();
  }
}
