import { NestExpressApplication } from '@nestjs/platform-express';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { PayoutProcessorService, PayoutRunSummary } from '../../../src/payouts/payout-processor.service';
import { PayoutTuning } from '../../../src/payouts/payout-tuning';
import { SandboxHandle } from '../../../src/sandbox/sandbox-server';
import { startTestApp } from '../../support/test-app';

/** Engine knobs short enough for tests: leases in seconds, backoffs and polls in milliseconds. */
export const FAST_PAYOUT_TUNING: Partial<PayoutTuning> = {
  destinationPollMs: 20,
  pollDelayMs: 10,
  maxPollDelayMs: 100,
  inlinePollMs: 2_000,
};

export interface PayoutTestApp {
  app: NestExpressApplication;
  sandbox: SandboxHandle;
  api: () => TestAgent;
  /** Every JSON log line the daemon wrote, in order. */
  logs: string[];
  processor: PayoutProcessorService;
  dataSource: DataSource;
  close(): Promise<void>;
}

export interface PayoutTestAppOptions {
  env?: Record<string, string>;
  /** Share one sandbox between apps (replicas of one daemon). */
  sandbox?: SandboxHandle;
  tuning?: Partial<PayoutTuning>;
}

/** The whole daemon over real HTTP (test/support/test-app.ts), with captured log lines and short payout tuning. */
export async function startPayoutTestApp(options: PayoutTestAppOptions = {}): Promise<PayoutTestApp> {
  const logs: string[] = [];
  const t = await startTestApp({
    env: { LOG_LEVEL: 'info', ...options.env },
    sandbox: options.sandbox,
    logDestination: { write: (line: string) => void logs.push(line) },
    payoutTuning: { ...FAST_PAYOUT_TUNING, ...options.tuning },
  });
  return { ...t, logs, processor: t.app.get(PayoutProcessorService), dataSource: t.app.get(DataSource) };
}

/** Runs the processor until `done` holds (it is checked after every run), or fails after `timeoutMs`. */
export async function runUntil<T>(apps: PayoutTestApp | PayoutTestApp[], done: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<{ value: T; totals: PayoutRunSummary }> {
  const replicas = Array.isArray(apps) ? apps : [apps];
  const totals: PayoutRunSummary = { steps: 0, succeeded: 0, failed: 0 };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await done();
    if (value !== undefined) return { value, totals };
    if (Date.now() > deadline) throw new Error(`runUntil: condition not met within ${timeoutMs} ms`);
    const summaries = await Promise.all(replicas.map((r) => r.processor.runOnce()));
    for (const s of summaries) {
      totals.steps += s.steps;
      totals.succeeded += s.succeeded;
      totals.failed += s.failed;
    }
    // Whatever is left is waiting for a poll or a backoff: let time move before the next run.
    if (summaries.every((s) => s.steps === 0)) await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
