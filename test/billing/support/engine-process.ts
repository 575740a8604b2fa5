import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { nodeArgsFor } from '../../support/transpiled-entry';

const ROOT = resolve(__dirname, '../../..');
const WORKER = 'test/billing/support/engine-worker.ts';

/** A billing engine running in a child process (see engine-worker.ts). */
export interface EngineProcess {
  child: ChildProcess;
  /** Resolves once the worker printed that its app is up; rejects if it exits first. */
  ready: Promise<void>;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The worker's stderr so far (for failure messages). */
  stderr(): string;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `worker`: another entry that prints the same ready line (test/refunds/support/refund-worker.ts works refunds). */
export function startEngineProcess(env: { databaseUrl: string; sandboxUrl: string; concurrency?: number; worker?: string }): EngineProcess {
  const child = spawn(process.execPath, nodeArgsFor(env.worker ?? WORKER), {
    cwd: ROOT,
    env: {
      ...process.env,
      TEST_DB_URL: env.databaseUrl,
      SANDBOX_URL: env.sandboxUrl,
      WORKER_CONCURRENCY: String(env.concurrency ?? 4),
    },
    // stdin stays open as a lifeline: if the test process dies, the worker sees it close and exits.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
  const ready = new Promise<void>((resolveReady, rejectReady) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'engine-worker ready') resolveReady();
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    void exited.then(({ code, signal }) => rejectReady(new Error(`engine-worker exited (code ${code}, signal ${signal}) before it was ready: ${stderr}`)));
  });
  // A rejection nobody awaits (the worker was killed on purpose) must not fail the test run.
  ready.catch(() => undefined);
  return {
    child,
    ready,
    exited,
    stderr: () => stderr,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
