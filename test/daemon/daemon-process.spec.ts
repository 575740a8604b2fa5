import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDaemon } from '../support/daemon';
import { waitForStatus } from '../support/wait';

describe('the daemon process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-daemon-'));

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with no configuration (embedded database, sandbox, printed token), serves, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const daemon = await startDaemon({ PORT: String(port), DATA_DIR: dataDir, BILLING_INTERVAL_MS: '500' });
    try {
      const ready = await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 180_000);
      expect(await ready.json()).toMatchObject({ status: 'ok' });
      const out = daemon.output();
      expect(out).toContain('NO REAL MONEY MOVES');
      // One block after the start-up lines: the addresses and the token it made.
      const token = /Admin token +([0-9a-f]{48})/.exec(out)?.[1];
      expect(token).toBeDefined();
      expect(out).toContain(`http://localhost:${port}/api/v1`);
      expect(out).toContain(`http://localhost:${port}/docs`);
      expect(out).toMatch(/Hosted form +http:\/\/127\.0\.0\.1:\d+\/sandbox\/hosted-form\?customerID=/);
      // Not a terminal: stdout is JSON lines only, for log collectors (`npm start --silent > daemon.log`); the block is on
      // stderr, and the log says the same in one line, without the token.
      const lines = daemon.stdout().split('\n').filter((l) => l.trim() !== '');
      const notJson = lines.filter((line) => {
        try {
          return typeof JSON.parse(line) !== 'object';
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
      expect(daemon.stdout()).not.toContain('=====');
      const readyLine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'Billing daemon ready');
      expect(readyLine).toMatchObject({ adminApi: `http://localhost:${port}/api/v1`, sandbox: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
      expect(daemon.stdout()).not.toContain(token);

      const plans = await fetch(`http://127.0.0.1:${port}/api/v1/plans`, { headers: { Authorization: `Bearer ${token}` } });
      expect(plans.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/plans`)).status).toBe(401);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toContain('billing_passes_total');

      const exited = daemon.exited;
      daemon.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(daemon.output()).toContain('Shut down cleanly');
    } finally {
      if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    }
  });

  it('keeps the embedded data across a restart', async () => {
    const port = await freePort();
    const token = 'a-fixed-admin-token-for-restart';
    const first = await startDaemon({ PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: token, SCHEDULER_ENABLED: 'false' });
    let planId: string;
    try {
      await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 180_000);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/plans`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Kept', product: 'Kept', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }),
      });
      expect(res.status).toBe(201);
      planId = ((await res.json()) as { id: string }).id;
      const exited = first.exited;
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }

    const second = await startDaemon({ PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: token, SCHEDULER_ENABLED: 'false' });
    try {
      await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 180_000);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/plans/${planId}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      const exited = second.exited;
      second.child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses to start with a bad environment, listing every problem', async () => {
    const daemon = await startDaemon({ PORT: 'x', NODE_ENV: 'production', TEST_CLOCK: 'true' });
    const code = await daemon.exited;
    expect(code).toBe(78);
    const out = daemon.output();
    expect(out).toContain('PORT must be an integer');
    expect(out).toContain('ADMIN_TOKEN is required');
    expect(out).toContain('PROVIDER_URL is required');
    expect(out).toContain('TEST_CLOCK must not be enabled');
  });
});
