import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from '../../app.factory';
import { loadConfig } from '../../config/load-config';
import { RuntimeSettings } from '../../config/runtime-settings';
import { startEmbeddedPostgres } from '../../database/embedded-postgres';
import { runMigrations } from '../../database/run-migrations';
import { buildApiDocument, COMMITTED_DOCUMENT_PATH, serializeApiDocument } from './api-description';

/**
 * `npm run openapi`: builds the app as the daemon does (on a throwaway in-memory database; no request is
 * served and nothing is called) and writes its OpenAPI document to docs/openapi.json.
 */
async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? COMMITTED_DOCUMENT_PATH);
  const database = await startEmbeddedPostgres(undefined);
  try {
    // Migrated like the daemon's, so closing the app (which releases any leases it holds) finds its tables.
    await runMigrations(database.url);
    const config = loadConfig({ ADMIN_TOKEN: 'openapi-generation', LOG_LEVEL: 'silent', SCHEDULER_ENABLED: 'false' });
    // The provider URL is never called: the app is built, not started.
    const app = await createApp({ config, runtime: new RuntimeSettings(database.url, 'http://127.0.0.1:9') });
    writeFileSync(target, serializeApiDocument(buildApiDocument(app)));
    await app.close();
    console.log(`Wrote the OpenAPI document to ${target}`);
  } finally {
    await database.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
