import 'reflect-metadata';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/run-migrations';

/**
 * One database for the whole run: the server in TEST_DATABASE_URL when set (CI gives a fresh one),
 * otherwise an in-memory embedded PostgreSQL (PGlite) started here, in jest's parent process,
 * so that every test file and every child process the tests spawn can reach it over TCP.
 */
export default async function globalSetup(): Promise<void> {
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const embedded = await startEmbeddedPostgres(undefined);
    (globalThis as { __EMBEDDED_PG__?: unknown }).__EMBEDDED_PG__ = embedded;
    url = embedded.url;
    process.env.TEST_DATABASE_KIND = 'embedded';
  } else {
    process.env.TEST_DATABASE_KIND = 'server';
  }
  await runMigrations(url);
  process.env.TEST_DB_URL = url;
}
