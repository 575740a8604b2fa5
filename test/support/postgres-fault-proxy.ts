import { createServer, Server, Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** What happens to the connection that sends the statement a fault waits for. */
type FaultKind = 'lose-answer' | 'cut-before';

interface Fault {
  kind: FaultKind;
  sql: RegExp;
  fired: () => void;
}

/** Frontend messages that carry SQL text: a simple Query, or the Parse of an extended-protocol exchange. */
const QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'
const READY_FOR_QUERY = 0x5a; // 'Z'

/** The SQL text a frontend message carries, or null. */
function sqlOf(type: number, payload: Buffer): string | null {
  if (type === QUERY) return payload.toString('utf8', 0, Math.max(0, payload.indexOf(0)));
  if (type === PARSE) {
    const start = payload.indexOf(0) + 1; // after the statement's name
    return payload.toString('utf8', start, payload.indexOf(0, start));
  }
  return null;
}

/**
 * Splits a PostgreSQL byte stream into whole messages (type byte, then a length that counts itself). The client's
 * stream starts with one untyped message (the startup packet), which `untypedFirst` skips.
 */
class MessageSplitter {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private untypedFirst: boolean) {}

  /** Whole messages in `chunk` (and before it); a part of one waits for the rest. */
  push(chunk: Buffer): { type: number | null; bytes: Buffer; payload: Buffer }[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: { type: number | null; bytes: Buffer; payload: Buffer }[] = [];
    for (;;) {
      if (this.untypedFirst) {
        if (this.pending.length < 4) break;
        const length = this.pending.readUInt32BE(0);
        if (this.pending.length < length) break;
        messages.push({ type: null, bytes: this.pending.subarray(0, length), payload: this.pending.subarray(4, length) });
        this.pending = this.pending.subarray(length);
        this.untypedFirst = false;
        continue;
      }
      if (this.pending.length < 5) break;
      const length = this.pending.readUInt32BE(1) + 1;
      if (this.pending.length < length) break;
      messages.push({ type: this.pending[0], bytes: this.pending.subarray(0, length), payload: this.pending.subarray(5, length) });
      this.pending = this.pending.subarray(length);
    }
    return messages;
  }
}

/**
 * A TCP proxy between the daemon and PostgreSQL that loses the database's answers on demand, the way a network
 * or a server failing at the wrong moment does: a statement that commits while the connection dies before its
 * answer comes back (a lost acknowledgement), or a connection that dies before a statement is sent. It reads the
 * wire protocol only to find the statement named; everything else passes as it is. No server setting is touched,
 * so it is scoped to the daemon the test points at it.
 */
export class PostgresFaultProxy {
  private readonly faults: Fault[] = [];
  private readonly connections = new Set<Socket>();
  private refusing = false;

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {}

  /** Listens on a free loopback port and forwards to the server of `databaseUrl`. */
  static async start(databaseUrl: string): Promise<PostgresFaultProxy> {
    const url = new URL(databaseUrl);
    const server = createServer();
    const proxy = new PostgresFaultProxy(server, { host: url.hostname, port: Number(url.port || 5432) });
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `databaseUrl` (the same database and user) through this proxy. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as AddressInfo).port);
    return url.toString();
  }

  /**
   * The next statement matching `sql` reaches the server and completes there (committing, outside a transaction);
   * its connection is then cut before the answer reaches the daemon. Resolves once that happened.
   */
  loseAnswerOf(sql: RegExp): Promise<void> {
    return this.arm('lose-answer', sql);
  }

  /** The connection that is about to send the next statement matching `sql` is cut first: it never runs. */
  cutBefore(sql: RegExp): Promise<void> {
    return this.arm('cut-before', sql);
  }

  /** Every connection is cut and new ones are refused, as when the server is down; `up()` ends it. */
  down(): void {
    this.refusing = true;
    for (const socket of this.connections) socket.destroy();
  }

  up(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private arm(kind: FaultKind, sql: RegExp): Promise<void> {
    return new Promise((resolve) => this.faults.push({ kind, sql, fired: resolve }));
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const server = connect(this.target.port, this.target.host);
    const sockets = [client, server];
    const cut = () => sockets.forEach((s) => s.destroy());
    for (const socket of sockets) {
      this.connections.add(socket);
      socket.on('close', () => {
        this.connections.delete(socket);
        cut();
      });
      socket.on('error', cut);
    }
    const fromClient = new MessageSplitter(true);
    const fromServer = new MessageSplitter(false);
    // Set once a lost answer's statement went out: the server's answers are held back until it is ready again.
    let losing: Fault | null = null;

    client.on('data', (chunk: Buffer) => {
      for (const message of fromClient.push(chunk)) {
        const sql = message.type === null ? null : sqlOf(message.type, message.payload);
        const index = sql === null ? -1 : this.faults.findIndex((f) => f.sql.test(sql));
        if (index >= 0) {
          const [fault] = this.faults.splice(index, 1);
          if (fault.kind === 'cut-before') {
            cut();
            fault.fired();
            return;
          }
          losing = fault;
        }
        server.write(message.bytes);
      }
    });
    server.on('data', (chunk: Buffer) => {
      for (const message of fromServer.push(chunk)) {
        if (losing === null) {
          client.write(message.bytes);
        } else if (message.type === READY_FOR_QUERY) {
          // The statement is done (and committed, if it commits on its own): the daemon never hears of it.
          cut();
          losing.fired();
          return;
        }
      }
    });
  }
}
