import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/** Handle of a running embedded PostgreSQL (PGlite behind its socket server). */
export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite and serves it over the PostgreSQL wire protocol on a loopback port, so TypeORM's
 * ordinary `pg` driver talks to it like any server. `dataDir` undefined keeps it in memory.
 * PGlite runs one transaction at a time across all connections: correct, but slower under contention.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgresHandle> {
  // PGlite ships ESM and CJS builds; load lazily so a daemon on a real server never pays for WASM.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  let db;
  if (dataDir) {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create({ dataDir: dir });
  } else {
    db = await PGlite.create();
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
  keepExtendedQueriesTogether(server as unknown as { queryQueue: QueryQueue });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: { isInTransaction(): boolean; runExclusive<T>(fn: () => Promise<T>): Promise<T>; execProtocolRawStream(m: Uint8Array, o: { onRawData: (d: Uint8Array) => void }): Promise<unknown> };
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Frontend messages that continue an extended-protocol exchange: Parse, Bind, Describe, Execute, Close, Flush. */
const EXCHANGE_CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket multiplexes every connection onto PGlite's one session, message by message. Outside a
 * transaction it may run another connection's Parse between one connection's Parse and Bind, so
 * concurrent parameterized queries collide on the unnamed statement ("bind message supplies 7
 * parameters, but prepared statement requires 1"). This keeps a connection's messages together from
 * its first Parse to its Sync, as the library already does inside a transaction.
 */
function keepExtendedQueriesTogether(server: { queryQueue: QueryQueue }): void {
  const queue = server.queryQueue;
  let exchangeOwner: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueue): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = exchangeOwner ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((m) => m.handlerId === owner);
        if (index === -1) break; // wait for the owner's next message
        const [item] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          exchangeOwner = null;
          item.reject(error);
          continue;
        }
        exchangeOwner = EXCHANGE_CONTINUES.has(item.message[0]) ? item.handlerId : null;
        this.lastHandlerId = item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    // A client that vanished mid-exchange must not hold everyone else up.
    if (exchangeOwner === handlerId) {
      exchangeOwner = null;
      setImmediate(() => void queue.processQueue());
    }
  };
}
