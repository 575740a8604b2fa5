import 'reflect-metadata';
import type { Config } from '@jest/types';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/run-migrations';
import { workerDatabases } from './worker-databases';

/**
 * The databases of the run. On a real server (TEST_DATABASE_URL; CI gives a fresh one) that database is migrated once
 * and serves as the template of one database per jest worker, so suites run in parallel and each one's reset touches
 * nobody else's rows. Without a server, an in-memory embedded PostgreSQL (PGlite) is started here, in jest's parent
 * process, so every test file and every child process the tests spawn reach it over TCP; it has a single database,
 * so jest.config.js gives it a single worker.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const embedded = await startEmbeddedPostgres(undefined);
    (globalThis as { __EMBEDDED_PG__?: unknown }).__EMBEDDED_PG__ = embedded;
    process.env.TEST_DATABASE_KIND = 'embedded';
    await runMigrations(embedded.url);
    process.env.TEST_DB_URLS = JSON.stringify([embedded.url]);
    return;
  }
  process.env.TEST_DATABASE_KIND = 'server';
  await runMigrations(url);
  const urls = await workerDatabases(url, Math.max(1, globalConfig.maxWorkers)).create();
  process.env.TEST_DB_URLS = JSON.stringify(urls);
}
