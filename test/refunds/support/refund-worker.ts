/**
 * A daemon in its own process that only works card refunds, for the SIGKILL scenario: builds the daemon on TEST_DB_URL
 * against the sandbox at SANDBOX_URL (test clock on, scheduler off) and runs refund passes in a loop until it is killed.
 * Started through test/billing/support/engine-process.ts (`worker`); prints "engine-worker ready" once the app is up.
 * SIGTERM ends it cleanly after the pass in flight, and so does its stdin closing; SIGKILL is the point of the exercise.
 */
import 'reflect-metadata';
import { createApp } from '../../../src/app.factory';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { RefundProcessorService } from '../../../src/refunds/refund-processor.service';
import { FAST_WORK_TUNING } from '../../support/fast-work-tuning';
import { testConfig } from '../../support/test-config';
import { sleep } from '../../support/wait';
import { FAST_REFUND_TUNING } from './refund-fixtures';

async function main(): Promise<void> {
  const databaseUrl = process.env.TEST_DB_URL;
  const sandboxUrl = process.env.SANDBOX_URL;
  if (!databaseUrl || !sandboxUrl) throw new Error('refund-worker needs TEST_DB_URL and SANDBOX_URL');
  const app = await createApp({
    config: testConfig({ TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'false' }),
    runtime: new RuntimeSettings(databaseUrl, sandboxUrl),
    workTuning: FAST_WORK_TUNING,
    refundTuning: { ...FAST_REFUND_TUNING, concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4) },
    poolSize: 4,
  });
  await app.init();
  const processor = app.get(RefundProcessorService);

  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
  });
  // The test process holds our stdin open; when it goes away, so do we.
  process.stdin.on('close', () => process.exit(0));
  process.stdin.resume();
  process.stdout.write('engine-worker ready\n');

  while (!stopping) {
    try {
      const summary = await processor.runOnce();
      if (summary.steps === 0) await sleep(20);
    } catch (error) {
      process.stderr.write(`refund pass failed: ${error instanceof Error ? error.message : String(error)}\n`);
      await sleep(100);
    }
  }
  await app.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`refund-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
