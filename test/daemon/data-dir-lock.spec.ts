import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from '../support/daemon';
import { waitFor, waitForStatus } from '../support/wait';

describe('a second daemon on the same DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-lock-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops at once, saying which process holds the data directory and what to do, and the first one goes on', async () => {
    const first = await startDaemon({ DATA_DIR: dataDir, ADMIN_TOKEN: 'a-fixed-admin-token-for-lock', SCHEDULER_ENABLED: 'false' });
    try {
      await waitFor(async () => existsSync(join(dataDir, 'daemon.lock')), Boolean, { timeoutMs: 60_000, everyMs: 100, what: 'the first daemon holding DATA_DIR' });
      const second = await startDaemon({ DATA_DIR: dataDir, ADMIN_TOKEN: 'a-fixed-admin-token-for-lock', SCHEDULER_ENABLED: 'false' });
      expect(await second.exited).toBe(75);
      expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another billing daemon (pid ${first.child.pid}`);
      expect(second.output()).toContain(`kill ${first.child.pid}`);
      expect(second.output()).not.toContain('Aborted');

      await waitForStatus(`${first.baseUrl}/health/ready`, 200, 120_000);
      const exited = first.exited;
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(dataDir, 'daemon.lock'))).toBe(false);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  }, 240_000);
});
