import 'reflect-metadata';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from './app.factory';
import { createBootLogger } from './common/logging/boot-logger';
import { readyLine, startBanner } from './common/logging/start-banner';
import { logsArePretty } from './common/logging/pino-options';
import { ShutdownSignal } from './common/shutdown-signal';
import { ConfigError } from './config/config-error';
import { adminTokenPath, DataDirFileError, keepGeneratedAdminToken } from './config/data-dir-files';
import { DataDirLock, DataDirLockedError, lockDataDir } from './config/data-dir-lock';
import { loadConfig } from './config/load-config';
import { RuntimeSettings } from './config/runtime-settings';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/run-migrations';
import { untilDatabaseAnswers } from './database/wait-for-database';
import { BootDatabaseWait } from './health/boot-database-wait';
import { ProviderWebhookRegistrationService } from './provider-webhooks/provider-webhook-registration.service';
import { BuiltInSandbox, startBuiltInSandbox } from './sandbox/built-in-sandbox';

/** Lines before the application's logger exists and after it has closed; same look and redaction as its own. */
const bootLog = createBootLogger();

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = keepGeneratedAdminToken(loadConfig());
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DataDirFileError) {
      console.error(e.message);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }

  // The embedded database and the built-in sandbox's state live in DATA_DIR: one process at a time.
  let dataDirLock: DataDirLock | undefined;
  if (!config.databaseUrl || !config.providerUrl) {
    try {
      dataDirLock = lockDataDir(config.dataDir);
    } catch (e) {
      if (!(e instanceof DataDirLockedError)) throw e;
      console.error(e.message);
      process.exit(75); // EX_TEMPFAIL: try again once the other daemon has stopped
    }
    const { replaced } = dataDirLock;
    if (replaced) bootLog.warn(`DATA_DIR ${config.dataDir} was last held by pid ${replaced.pid} on host ${replaced.hostname} (started ${replaced.startedAt}), which this host cannot check: taking it over`);
  }

  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = join(config.dataDir, 'pg');
    bootLog.info(`DATABASE_URL is not set: starting the embedded PostgreSQL (PGlite) with its data in ${dir}`);
    embedded = await startEmbeddedPostgres(dir);
    databaseUrl = embedded.url;
  }
  // A replica that boots before its database, or while it shuts down or starts up (a restart, a failover), waits for
  // it (with backoff, said in the log) instead of exiting; its port meanwhile answers live 200 and ready 503, so an
  // orchestrator neither restarts it nor routes to it. The application's own connections below wait the same way.
  const databaseWait = new BootDatabaseWait(config.port, bootLog);
  const url = databaseUrl;
  const applied = await untilDatabaseAnswers(() => runMigrations(url), databaseWait);
  if (applied.length > 0) bootLog.info({ migrations: applied }, `Applied ${applied.length} migration(s)`);

  let sandbox: BuiltInSandbox | undefined;
  let providerBaseUrl = config.providerUrl;
  if (!providerBaseUrl) {
    sandbox = await startBuiltInSandbox(config);
    providerBaseUrl = sandbox.handle.url;
    if (sandbox.portChangedFrom !== undefined) {
      bootLog.warn(
        `The sandbox's kept port ${sandbox.portChangedFrom} is taken: it now listens on ${sandbox.port} (kept from now on); hosted form links made before point at the old port`,
      );
    }
    bootLog.warn(
      `PROVIDER_URL is not set: using the built-in provider SANDBOX at ${sandbox.handle.url}. NO REAL MONEY MOVES. Set PROVIDER_URL, PROVIDER_API_KEY and PROVIDER_SHOP_ID to use the real provider.`,
    );
  }

  const app = await createApp({ config, runtime: new RuntimeSettings(databaseUrl, providerBaseUrl), databaseWait });
  await databaseWait.release();
  await app.listen(config.port);
  // The provider's webhooks: at PUBLIC_URL, or with the built-in sandbox at this daemon's own address. Recording them
  // is a write, so it waits for a database that went away meanwhile, as the rest of the boot does.
  const webhooksAt = config.publicUrl ?? (sandbox ? `http://127.0.0.1:${config.port}` : undefined);
  await untilDatabaseAnswers(() => app.get(ProviderWebhookRegistrationService).start(webhooksAt), {
    warn: (fields, message) => bootLog.warn(fields, message),
    info: (message) => bootLog.info(message),
  });
  // One block, written at once, after the start-up lines: the addresses, and the token when the daemon made it.
  const banner = startBanner({
    port: config.port,
    startedInMs: performance.now(),
    ...(config.adminTokenGenerated && { generatedAdminToken: { token: config.adminToken, ...(!config.production && { keptIn: adminTokenPath(config.dataDir) }) } }),
    ...(sandbox && { sandboxUrl: sandbox.handle.url }),
  });
  if (logsArePretty()) {
    process.stdout.write(banner);
  } else {
    // Not a terminal (`npm start --silent > daemon.log`, a container): stdout carries JSON lines only. The block goes
    // to stderr for the person who started it, and the log gets one line saying the same, without the token.
    process.stderr.write(banner);
    bootLog.info(readyLine({ port: config.port, startedInMs: performance.now(), ...(sandbox && { sandboxUrl: sandbox.handle.url }) }), 'Billing daemon ready');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    bootLog.info(`${signal} received: finishing in-flight work and shutting down`);
    try {
      // Readiness answers 503 and no job claims new work from here on.
      app.get(ShutdownSignal).begin();
      await app.close();
      await sandbox?.handle.close();
      await embedded?.stop();
      dataDirLock?.release();
      bootLog.info('Shut down cleanly');
      process.exit(0);
    } catch (e) {
      bootLog.error({ error: String(e) }, 'Shutdown failed');
      process.exit(1);
    }
  };
  // Nest's own shutdown hooks are enabled too; these also stop the sandbox and the embedded database after it.
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

bootstrap().catch((e: unknown) => {
  bootLog.error({ error: e instanceof Error ? e.message : String(e) }, 'The daemon failed to start');
  process.exit(1);
});
