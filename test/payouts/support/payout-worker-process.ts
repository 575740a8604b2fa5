import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeArgsFor } from '../../support/transpiled-entry';

/** The repository root: the worker runs from there. */
const ROOT = join(__dirname, '..', '..', '..');

export interface WorkerLine {
  worker: string;
  settled?: number;
  seconds?: number;
  takeovers?: number;
  message?: string;
}

/** A payout worker in its own process (test/payouts/support/payout-worker.ts). */
export class WorkerProcess {
  readonly lines: string[] = [];
  readonly events: WorkerLine[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, nodeArgsFor('test/payouts/support/payout-worker.ts'), {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let buffered = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        this.lines.push(line);
        if (line.startsWith('{"worker"')) this.events.push(JSON.parse(line) as WorkerLine);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => this.lines.push(chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  last(event: string): WorkerLine | undefined {
    return [...this.events].reverse().find((e) => e.worker === event);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
