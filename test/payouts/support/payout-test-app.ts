import { DataSource } from 'typeorm';
import { PayoutProcessorService, PayoutRunSummary } from '../../../src/payouts/payout-processor.service';
import { PayoutTuning } from '../../../src/payouts/payout-tuning';
import { SandboxHandle } from '../../../src/sandbox/sandbox-server';
import type { WorkTuning } from '../../../src/work/work-tuning';
import { startTestApp, TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';

/** Engine knobs short enough for tests: leases in seconds, backoffs and polls in milliseconds. */
export const FAST_PAYOUT_TUNING: Partial<PayoutTuning> = {
  destinationPollMs: 20,
  pollDelayMs: 10,
  maxPollDelayMs: 100,
  inlinePollMs: 2_000,
};

export interface PayoutTestApp extends TestApp {
  /** Every JSON log line the daemon wrote, in order. */
  logs: string[];
  processor: PayoutProcessorService;
  dataSource: DataSource;
}

export interface PayoutTestAppOptions {
  env?: Record<string, string>;
  /** Share one sandbox between apps (replicas of one daemon). */
  sandbox?: SandboxHandle;
  tuning?: Partial<PayoutTuning>;
  /** Over the short test timings of the work engine (FAST_WORK_TUNING). */
  workTuning?: Partial<WorkTuning>;
  /** Another database URL than the run's (the same database through a fault proxy). */
  databaseUrl?: string;
}

/** The whole daemon over real HTTP (test/support/test-app.ts), with captured log lines and short payout tuning. */
export async function startPayoutTestApp(options: PayoutTestAppOptions = {}): Promise<PayoutTestApp> {
  const logs: string[] = [];
  const t = await startTestApp({
    env: { LOG_LEVEL: 'info', ...options.env },
    sandbox: options.sandbox,
    logDestination: { write: (line: string) => void logs.push(line) },
    workTuning: options.workTuning,
    databaseUrl: options.databaseUrl,
    payoutTuning: { ...FAST_PAYOUT_TUNING, ...options.tuning },
  });
  return { ...t, logs, processor: t.app.get(PayoutProcessorService), dataSource: t.app.get(DataSource) };
}

/** Runs the processor until `done` holds (it is checked before every run), or fails after `timeoutMs`. */
export async function runUntil<T>(apps: PayoutTestApp | PayoutTestApp[], done: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<{ value: T; totals: PayoutRunSummary }> {
  const replicas = Array.isArray(apps) ? apps : [apps];
  const totals: PayoutRunSummary = { steps: 0, succeeded: 0, failed: 0 };
  let idle = false;
  const value = await waitFor(
    async () => {
      const found = await done();
      if (found !== undefined) return found;
      const summaries = await Promise.all(replicas.map((r) => r.processor.runOnce()));
      for (const s of summaries) {
        totals.steps += s.steps;
        totals.succeeded += s.succeeded;
        totals.failed += s.failed;
      }
      idle = summaries.every((s) => s.steps === 0);
      return undefined;
    },
    (found) => found !== undefined,
    // Whatever is left after an idle run waits for a poll or a backoff: let time move before the next one.
    { timeoutMs, everyMs: () => (idle ? 10 : 0), what: 'runUntil: the condition' },
  );
  return { value: value as T, totals };
}
