import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { TEST_ADMIN_TOKEN, UNLIMITED_RATE } from './test-config';
import { nodeArgsFor } from './transpiled-entry';

const ROOT = join(__dirname, '..', '..');

export interface DaemonProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** What it printed on stdout alone. */
  stdout(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts src/main.ts the way `npm start` runs dist/main.js, with only the given environment (and PATH); PORT defaults to a free one. */
export async function startDaemon(env: Record<string, string>): Promise<DaemonProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let output = '';
  let stdout = '';
  const child = spawn(process.execPath, nodeArgsFor('src/main.ts'), {
    cwd: ROOT,
    // Plans without their own dunning follow the fixed ladder the tests describe, unless a test says otherwise.
    env: { PATH: process.env.PATH ?? '', DUNNING_STRATEGY: 'fixed', API_RATE_LIMIT: UNLIMITED_RATE, AUTH_FAILURE_LIMIT: UNLIMITED_RATE, ...env, PORT: env.PORT ?? String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
    stdout = (stdout + d.toString()).slice(-200_000);
  });
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, stdout: () => stdout, exited };
}

/** A daemon of a multi-process test: the given database and sandbox, its own data folder, test clock and scheduler on, quiet logs. */
export function schedulingDaemonEnv(databaseUrl: string, sandboxUrl: string, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PROVIDER_URL: sandboxUrl,
    PROVIDER_API_KEY: SANDBOX_API_KEY,
    PROVIDER_SHOP_ID: SANDBOX_SHOP_ID,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TEST_CLOCK: 'true',
    SCHEDULER_ENABLED: 'true',
    BILLING_INTERVAL_MS: '500',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
  };
}
