import { statSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, freePort, startDaemon } from '../support/daemon';
import { openLink } from '../support/three-ds-payer';
import { waitFor, waitForStatus } from '../support/wait';

/** What the start block says: the token it made and the sandbox's address. */
function startBlock(output: string): { token?: string; sandboxUrl?: string } {
  return {
    token: /Admin token +([0-9a-f]{48})/.exec(output)?.[1],
    sandboxUrl: /Sandbox +(http:\/\/127\.0\.0\.1:\d+) /.exec(output)?.[1],
  };
}

async function stop(daemon: DaemonProcess): Promise<void> {
  if (daemon.child.exitCode !== null) return;
  daemon.child.kill('SIGTERM');
  expect(await daemon.exited).toBe(0);
}

async function started(env: Record<string, string>): Promise<{ daemon: DaemonProcess; readyMs: number }> {
  const begin = Date.now();
  const daemon = await startDaemon(env);
  await waitForStatus(`${daemon.baseUrl}/health/ready`, 200, 90_000);
  // The block is written right after the listener opens; give the pipe a moment (the tests then read what came).
  await waitFor(async () => daemon.output(), (output) => startBlock(output).sandboxUrl !== undefined, { timeoutMs: 30_000, everyMs: 100, failOnTimeout: false });
  return { daemon, readyMs: Date.now() - begin };
}

describe('a restarted daemon on the same DATA_DIR (no ADMIN_TOKEN, built-in sandbox)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-restart-'));
  const otherDataDir = mkdtempSync(join(tmpdir(), 'billing-clash-'));
  const running: DaemonProcess[] = [];

  afterAll(() => {
    for (const daemon of running) if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDataDir, { recursive: true, force: true });
  });

  it('keeps its admin token (file mode 0600) and its sandbox port, so a hosted form link keeps working', async () => {
    const env = { DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' };
    const first = await started(env);
    running.push(first.daemon);
    const { token, sandboxUrl } = startBlock(first.daemon.output());
    expect(token).toBeDefined();
    expect(sandboxUrl).toBeDefined();
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim()).toBe(token);
    expect(statSync(join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'sandbox-port'), 'utf8').trim()).toBe(new URL(sandboxUrl!).port);

    const created = await fetch(`${first.daemon.baseUrl}/api/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const { hostedFormUrl } = (await created.json()) as { hostedFormUrl: string };
    expect(hostedFormUrl.startsWith(`${sandboxUrl}/sandbox/hosted-form?`)).toBe(true);
    expect((await openLink(hostedFormUrl)).status).toBe(200);
    await stop(first.daemon);

    const second = await started(env);
    running.push(second.daemon);
    expect(startBlock(second.daemon.output())).toEqual({ token, sandboxUrl });
    expect((await fetch(`${second.daemon.baseUrl}/api/v1/plans`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    const form = await openLink(hostedFormUrl);
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="cardNumber"');
    // For the record: the time from spawning the process (its sources transpiled ahead, like `npm start`'s build) to ready.
    process.stdout.write(`restart ready in ${second.readyMs} ms (first start ${first.readyMs} ms)\n`);
    await stop(second.daemon);
  });

  it('moves to a new port, says so and keeps it, when the kept port is taken', async () => {
    const kept = Number(readFileSync(join(dataDir, 'sandbox-port'), 'utf8').trim());
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(kept, '127.0.0.1', resolve));
    try {
      const { daemon } = await started({ DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' });
      running.push(daemon);
      const { sandboxUrl } = startBlock(daemon.output());
      expect(new URL(sandboxUrl!).port).not.toBe(String(kept));
      expect(daemon.output()).toContain(`kept port ${kept} is taken`);
      expect(readFileSync(join(dataDir, 'sandbox-port'), 'utf8').trim()).toBe(new URL(sandboxUrl!).port);
      await stop(daemon);
    } finally {
      squatter.close();
    }
  });

  it('uses SANDBOX_PORT when set, and refuses to start when that port is taken', async () => {
    const port = await freePort();
    const { daemon } = await started({ DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false', SANDBOX_PORT: String(port) });
    running.push(daemon);
    expect(startBlock(daemon.output()).sandboxUrl).toBe(`http://127.0.0.1:${port}`);

    // The same port while the first daemon still holds it.
    const clash = await startDaemon({ DATA_DIR: otherDataDir, SCHEDULER_ENABLED: 'false', SANDBOX_PORT: String(port) });
    running.push(clash);
    expect(await clash.exited).not.toBe(0);
    expect(clash.output()).toContain(`SANDBOX_PORT=${port} is already in use`);
    await stop(daemon);
  });
});
