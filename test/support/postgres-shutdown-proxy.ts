import { createConnection, createServer, Server, Socket } from 'node:net';

/** What a client sent: its startup parameters (first message) or the text of a query it sent. */
export interface ClientMessage {
  startup?: Record<string, string>;
  query?: string;
}

export interface PostgresShutdownProxy {
  /** A connection string to the target database through this proxy. */
  url: string;
  /** Whether it answers as a PostgreSQL that is shutting down. */
  readonly down: boolean;
  /** Shuts down as PostgreSQL's fast shutdown does: every session gets FATAL 57P01, every new one FATAL 57P03. */
  shutDown(): void;
  /** Back up: new connections reach the database again. */
  start(): void;
  close(): Promise<void>;
}

/** A backend's ErrorResponse message with severity FATAL. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** Cuts a stream of protocol messages (type byte, then a length) into whole messages; `startup`: the first has no type. */
function framer(startup: boolean, onMessage: (message: Buffer, first: boolean) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let first = startup;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const offset = first ? 0 : 1;
      if (pending.length < offset + 4) return;
      const end = offset + pending.readInt32BE(offset);
      if (pending.length < end) return;
      const message = pending.subarray(0, end);
      pending = pending.subarray(end);
      const wasFirst = first;
      first = false;
      onMessage(message, wasFirst);
    }
  };
}

/** The parameters of a StartupMessage (length, protocol version, then name/value pairs). */
function startupParameters(message: Buffer): Record<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\0');
  const parameters: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) parameters[parts[i]] = parts[i + 1];
  return parameters;
}

/** The SQL of a simple Query ('Q') or an extended Parse ('P') message. */
function queryText(message: Buffer): string | undefined {
  if (message[0] === 0x51) return message.subarray(5).toString('utf8');
  if (message[0] === 0x50) return message.subarray(5).toString('utf8').split('\0')[1];
  return undefined;
}

/**
 * A TCP front of a real PostgreSQL that can answer as one that is shutting down, at a moment the test picks
 * (`shutDownWhen`, asked about every client message before it is forwarded; the message that triggers the shutdown
 * is never forwarded). Whole messages only are passed on, so the FATAL it sends lands between two of them, as a
 * backend's own would.
 */
export async function startPostgresShutdownProxy(targetUrl: string, shutDownWhen?: (message: ClientMessage) => boolean): Promise<PostgresShutdownProxy> {
  const target = new URL(targetUrl);
  let down = false;
  let trigger = shutDownWhen;
  const sessions = new Set<{ client: Socket; upstream: Socket }>();
  const sockets = new Set<Socket>();

  const refuse = (client: Socket) => {
    client.on('error', () => undefined);
    client.on('data', framer(true, () => client.end(fatal('57P03', 'the database system is shutting down'))));
  };

  const proxy: PostgresShutdownProxy = {
    url: '',
    get down() {
      return down;
    },
    shutDown() {
      if (down) return;
      down = true;
      trigger = undefined;
      for (const { client, upstream } of sessions) {
        client.end(fatal('57P01', 'terminating connection due to administrator command'));
        upstream.destroy();
      }
      sessions.clear();
    },
    start() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (down) return refuse(client);
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    const session = { client, upstream };
    sessions.add(session);
    const end = () => {
      sessions.delete(session);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', framer(true, (message, first) => {
      if (!sessions.has(session)) return;
      const seen: ClientMessage = first ? { startup: startupParameters(message) } : { query: queryText(message) };
      if (trigger?.(seen)) return proxy.shutDown();
      upstream.write(message);
    }));
    upstream.on('data', framer(false, (message) => {
      if (sessions.has(session)) client.write(message);
    }));
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const through = new URL(targetUrl);
  through.hostname = '127.0.0.1';
  through.port = String((server.address() as { port: number }).port);
  proxy.url = through.toString();
  return proxy;
}
