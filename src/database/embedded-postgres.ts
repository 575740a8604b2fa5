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
