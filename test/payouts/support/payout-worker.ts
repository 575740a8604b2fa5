/**
 * A daemon process that only works payouts, for the crash test: started with
 *   node -r ts-node/register/transpile-only test/payouts/support/payout-worker.ts
 * and env TEST_DB_URL, SANDBOX_URL, WORKER_EXIT_WHEN_DONE.
 * Stdout carries the daemon's JSON log lines and this worker's own lines, {"worker": ...}.
 */
import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../../src/app.module';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { MetricsService } from '../../../src/common/metrics/metrics.service';
import { PayoutProcessorService } from '../../../src/payouts/payout-processor.service';
import { testConfig } from '../../support/test-config';
import { FAST_WORK_TUNING } from '../../support/fast-work-tuning';
import { sleep } from '../../support/wait';
import { FAST_PAYOUT_TUNING } from './payout-test-app';

function report(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ worker: event, pid: process.pid, ...data })}\n`);
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  const config = testConfig({ LOG_LEVEL: 'info' });
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.forRoot({
        config,
        runtime: new RuntimeSettings(required('TEST_DB_URL'), required('SANDBOX_URL')),
        logDestination: process.stdout,
        payoutTuning: { ...FAST_PAYOUT_TUNING, inlinePollMs: 750 },
        // A replacement takes the claims of a killed worker over once its heartbeat has been silent for two seconds.
        workTuning: FAST_WORK_TUNING,
      }),
    ],
  }).compile();
  const app = await moduleRef.init();
  const processor = app.get(PayoutProcessorService);
  const dataSource = app.get(DataSource);
  const exitWhenDone = process.env.WORKER_EXIT_WHEN_DONE === 'true';
  report('ready');

  const started = performance.now();
  let settled = 0;
  for (;;) {
    const summary = await processor.runOnce();
    settled += summary.succeeded + summary.failed;
    report('progress', { settled, seconds: (performance.now() - started) / 1000 });
    if (exitWhenDone) {
      const [{ open }] = await dataSource.query<{ open: number }[]>('SELECT count(*)::int AS open FROM payouts WHERE next_attempt_at IS NOT NULL');
      if (open === 0) break;
    }
    if (summary.steps === 0) await sleep(20);
  }
  const metrics = await app.get(MetricsService).registry.getSingleMetricAsString('work_takeovers_total');
  const takeovers = Number(/work_takeovers_total\{queue="payouts"\} (\d+)/.exec(metrics)?.[1] ?? 0);
  report('done', { settled, seconds: (performance.now() - started) / 1000, takeovers });
  await app.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    report('error', { message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
