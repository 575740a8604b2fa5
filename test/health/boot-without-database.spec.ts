import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, startDaemon } from '../support/daemon';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { waitFor, waitForStatus } from '../support/wait';

/**
 * A replica started while its PostgreSQL is down waits for it, saying so in its log with a growing delay, and its
 * port answers live 200 and ready 503 meanwhile; once the database is up it starts as usual.
 */
describe('booting while PostgreSQL is down', () => {
  let pg: ThrowawayPostgres;
  let daemon: DaemonProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-boot-wait-'));

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    pg.stop();
  }, 120_000);

  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
      daemon.child.kill('SIGTERM');
      await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    }
    pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits with backoff (ready 503, live 200), then starts once the database is back', async () => {
    daemon = await startDaemon({ DATABASE_URL: pg.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: dataDir, LOG_LEVEL: 'info', SCHEDULER_ENABLED: 'false' });
    const running = daemon;
    const waits = () => running.output().match(/PostgreSQL cannot be reached/g)?.length ?? 0;
    await waitFor(async () => waits(), (n) => n >= 3, { timeoutMs: 60_000, everyMs: 100, what: 'three waits logged' });
    expect(running.child.exitCode).toBeNull();
    expect(running.output()).toMatch(/waiting 1000 ms before trying again/);
    expect((await fetch(`${running.baseUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${running.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
    expect((await fetch(`${running.baseUrl}/api/v1/plans`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(503);

    pg.start();
    const up = await waitForStatus(`${running.baseUrl}/health/ready`, 200, 90_000);
    expect(up.headers.get('x-powered-by')).toBeNull();
    expect(running.output()).toMatch(/PostgreSQL answers after \d+ attempts/);
    expect((await fetch(`${running.baseUrl}/api/v1/plans`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(200);
  }, 180_000);
});
