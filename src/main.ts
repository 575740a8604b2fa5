import 'reflect-metadata';
import { join } from 'node:path';
import { createApp } from './app.factory';
import { ShutdownSignal } from './common/shutdown-signal';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/load-config';
import { RuntimeSettings } from './config/runtime-settings';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/run-migrations';
import { SandboxHandle, startSandbox } from './sandbox/sandbox-server';

/** One JSON line on stdout before the app logger exists, in the same shape pino writes. */
function bootLog(level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}): void {
  const levels = { info: 30, warn: 40, error: 50 };
  process.stdout.write(JSON.stringify({ level: levels[level], time: Date.now(), context: 'Boot', msg, ...extra }) + '\n');
}

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }

  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = join(config.dataDir, 'pg');
    bootLog('info', `DATABASE_URL is not set: starting the embedded PostgreSQL (PGlite) with its data in ${dir}`);
    embedded = await startEmbeddedPostgres(dir);
    databaseUrl = embedded.url;
  }
  const applied = await runMigrations(databaseUrl);
  if (applied.length > 0) bootLog('info', `Applied ${applied.length} migration(s)`, { migrations: applied });

  let sandbox: SandboxHandle | undefined;
  let providerBaseUrl = config.providerUrl;
  if (!providerBaseUrl) {
    sandbox = await startSandbox({ port: 0, apiKey: config.providerApiKey, shopId: config.providerShopId, stateFile: join(config.dataDir, 'sandbox-state.json') });
    providerBaseUrl = sandbox.url;
    bootLog('warn', `PROVIDER_URL is not set: using the built-in provider SANDBOX at ${sandbox.url}. NO REAL MONEY MOVES. Set PROVIDER_URL, PROVIDER_API_KEY and PROVIDER_SHOP_ID to use the real provider.`);
  }

  const app = await createApp({ config, runtime: new RuntimeSettings(databaseUrl, providerBaseUrl) });
  await app.listen(config.port);
  bootLog('info', `Admin API listening on http://localhost:${config.port}/api/v1 (health: /health/ready, metrics: /metrics)`);
  if (config.adminTokenGenerated) {
    // Printed on purpose: a generated token is useless unless the operator can read it once.
    process.stdout.write(`\n  ADMIN_TOKEN was not set; this run's admin token is:\n\n    ${config.adminToken}\n\n  Use it as: curl -H "Authorization: Bearer ${config.adminToken}" http://localhost:${config.port}/api/v1/plans\n\n`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    bootLog('info', `${signal} received: finishing in-flight work and shutting down`);
    try {
      // Readiness answers 503 and no job claims new work from here on.
      app.get(ShutdownSignal).begin();
      await app.close();
      await sandbox?.close();
      await embedded?.stop();
      bootLog('info', 'Shut down cleanly');
      process.exit(0);
    } catch (e) {
      bootLog('error', 'Shutdown failed', { error: String(e) });
      process.exit(1);
    }
  };
  // Nest's own shutdown hooks are enabled too; these also stop the sandbox and the embedded database after it.
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

bootstrap().catch((e: unknown) => {
  bootLog('error', 'The daemon failed to start', { error: e instanceof Error ? e.message : String(e) });
  process.exit(1);
});
