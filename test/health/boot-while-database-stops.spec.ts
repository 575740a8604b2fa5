import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, startDaemon } from '../support/daemon';
import { ClientMessage, PostgresShutdownProxy, startPostgresShutdownProxy } from '../support/postgres-shutdown-proxy';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { testDatabaseUrl } from '../support/test-database';
import { waitFor, waitForStatus } from '../support/wait';

/**
 * A replica that boots while its PostgreSQL shuts down (a restart, a failover) waits for it and starts once it is
 * back, whichever step of the boot the shutdown meets: the migrations, or the application's own connections right
 * after them. Before, the first exited 1 ("Query runner already released": the lock's release on the dropped
 * connection hid the shutdown's error) and the second gave up after two attempts a second apart.
 */
describe('booting while PostgreSQL shuts down', () => {
  let proxy: PostgresShutdownProxy | undefined;
  let daemon: DaemonProcess | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
      daemon.child.kill('SIGTERM');
      await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    }
    await proxy?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    daemon = proxy = dataDir = undefined;
  });

  const bootThrough = async (shutDownWhen: (message: ClientMessage) => boolean) => {
    proxy = await startPostgresShutdownProxy(testDatabaseUrl(), shutDownWhen);
    dataDir = mkdtempSync(join(tmpdir(), 'billing-boot-shutdown-'));
    daemon = await startDaemon({ DATABASE_URL: proxy.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: dataDir, LOG_LEVEL: 'info', SCHEDULER_ENABLED: 'false' });
    const running = daemon;
    const waits = () => running.output().match(/PostgreSQL cannot be reached/g)?.length ?? 0;
    // Two waits told while the database stays down, or the process gone: whichever comes first.
    await waitFor(
      async () => ({ exited: running.child.exitCode !== null, waits: waits() }),
      (seen) => seen.exited || seen.waits >= 2,
      { timeoutMs: 90_000, everyMs: 50, what: 'the replica waiting for PostgreSQL (or exiting)' },
    );
    expect({ exitCode: running.child.exitCode, down: proxy.down }).toEqual({ exitCode: null, down: true });
    expect(running.output()).toMatch(/PostgreSQL cannot be reached \(57P0[13]: (terminating connection due to administrator command|the database system is shutting down)\)/);
    // Meanwhile the port says the process is alive and not ready, so an orchestrator neither restarts nor routes to it.
    expect((await fetch(`${running.baseUrl}/health/live`)).status).toBe(200);
    expect((await fetch(`${running.baseUrl}/health/ready`)).status).toBe(503);

    proxy.start();
    await waitForStatus(`${running.baseUrl}/health/ready`, 200, 120_000);
    expect(running.output()).toMatch(/PostgreSQL answers after \d+ attempts/);
    expect((await fetch(`${running.baseUrl}/api/v1/plans`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(200);
  };

  it('waits when the shutdown meets its migrations, then starts', async () => {
    await bootThrough((message) => message.query?.includes('FROM "migrations"') ?? false);
  }, 240_000);

  it('waits when the shutdown meets the application connecting after the migrations, then starts', async () => {
    await bootThrough((message) => message.startup?.application_name === 'billing-daemon');
  }, 240_000);
});
