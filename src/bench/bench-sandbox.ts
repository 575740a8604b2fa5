import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { LoopLagSpent } from './loop-lag';

/** The provider sandbox in a process of its own, as a real provider would be: the daemon's CPU is measured alone. */
export interface BenchSandbox {
  url: string;
  port: number;
  /** The simulator's process, for its CPU. */
  pid: number | undefined;
  /** Adds `ms` of latency to every provider call (0 clears it). */
  setLatency(ms: number): Promise<void>;
  /** A payment is processed `paymentMs` after its creation and captured `captureMs` after that. */
  setSettleDelays(paymentMs: number, captureMs: number): Promise<void>;
  /** A payment is captured `ms` after its creation, processed half-way (the model of issue 17 at 20 ms: 10 + 10). */
  setCaptureAfter(ms: number): Promise<void>;
  /** The customer's next payments end as `outcomes` say ("success" or a failure code path), one each. */
  scriptOutcomes(customerID: string, outcomes: string[]): Promise<void>;
  close(): void;
}

export async function startSandboxProcess(apiKey: string): Promise<BenchSandbox> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'sandbox', 'sandbox.main.js')], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_API_KEY: apiKey },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/sandbox/${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  for (let i = 0; ; i++) {
    try {
      // The provider model of issue 17: a payment is processed 10 ms after its creation and captured 20 ms after it.
      const res = await control('POST', 'config', { delays: { bindingMs: 1, paymentMs: 10, captureMs: 10, authorizeDestinationMs: 1, withdrawalMs: 1 } });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200) throw new Error('the sandbox process did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const sandbox: BenchSandbox = {
    url,
    port,
    pid: child.pid,
    async setLatency(ms: number) {
      await control('DELETE', 'faults');
      if (ms > 0) await control('POST', 'faults', { kind: 'latency', latencyMs: ms });
    },
    async setSettleDelays(paymentMs: number, captureMs: number) {
      const res = await control('POST', 'config', { delays: { paymentMs, captureMs } });
      if (!res.ok) throw new Error(`the sandbox refused the delays: ${res.status}`);
    },
    async setCaptureAfter(ms: number) {
      const paymentMs = Math.floor(ms / 2);
      await sandbox.setSettleDelays(paymentMs, ms - paymentMs);
    },
    async scriptOutcomes(customerID: string, outcomes: string[]) {
      const res = await control('POST', 'outcomes', { customerID, outcomes });
      if (!res.ok) throw new Error(`the sandbox refused outcomes for ${customerID}: ${res.status}`);
    },
    close: () => child.kill('SIGTERM'),
  };
  return sandbox;
}

export interface FloorResult {
  perSecond: number;
  cpuMsPerRenewal: number;
  /** Time-weighted average of the provider calls in flight. */
  inFlight: number;
  callsPerRenewal: number;
  readsPerRenewal: number;
  /** From the start to the first call, and from the last answer to the end, in ms. */
  firstCallMs: number;
  tailMs: number;
  /** The average in flight over each tenth of the run. */
  inFlightByTenth: number[];
  /** The average time a call was in flight, in ms, and how late the client's event loop ran meanwhile. */
  callMs: number;
  loopLag: LoopLagSpent;
}

/** Runs the bare client (bare-client.main.ts) in its own process and answers what it measured. */
export function runBareClient(sandbox: BenchSandbox, args: { apiKey: string; shopId: string; renewals: number; concurrency: number; customers: string[] }): Promise<FloorResult> {
  const argv = [join(__dirname, 'bare-client.main.js'), sandbox.url, args.apiKey, args.shopId, String(args.renewals), String(args.concurrency), args.customers.join(',')];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the bare client failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as FloorResult);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
