/**
 * A billing engine in its own process, for the SIGKILL scenario: builds the daemon on TEST_DB_URL against the sandbox at
 * SANDBOX_URL (test clock on, scheduler off) and runs billing passes in a loop until it is killed.
 *
 *   TEST_DB_URL=... SANDBOX_URL=... node -r ts-node/register/transpile-only test/billing/support/engine-worker.ts
 *
 * Prints "engine-worker ready" once the app is up, and one "pass <json summary>" line per pass that did work.
 * SIGTERM ends it cleanly after the pass in flight, and so does its stdin closing; SIGKILL is the point of the exercise.
 */
import 'reflect-metadata';
import { createApp } from '../../../src/app.factory';
import { BillingRunService } from '../../../src/billing/billing-run.service';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { testConfig } from '../../support/test-config';
import { FAST_WORK_TUNING } from '../../support/fast-work-tuning';
import { sleep } from '../../support/wait';

async function main(): Promise<void> {
  const databaseUrl = process.env.TEST_DB_URL;
  const sandboxUrl = process.env.SANDBOX_URL;
  if (!databaseUrl || !sandboxUrl) throw new Error('engine-worker needs TEST_DB_URL and SANDBOX_URL');
  const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 4);

  const app = await createApp({
    config: testConfig({ TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'false' }),
    runtime: new RuntimeSettings(databaseUrl, sandboxUrl),
    billingTuning: { paymentPollMs: 500 },
    workTuning: FAST_WORK_TUNING,
    poolSize: 4,
  });
  await app.init();
  const billing = app.get(BillingRunService);

  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
  });
  // The test process holds our stdin open; when it goes away, so do we (no orphan engines billing on).
  process.stdin.on('close', () => process.exit(0));
  process.stdin.resume();
  process.stdout.write('engine-worker ready\n');

  while (!stopping) {
    try {
      const summary = await billing.runPass(concurrency);
      if (summary.due > 0 || summary.created > 0) process.stdout.write(`pass ${JSON.stringify(summary)}\n`);
      else await sleep(50);
    } catch (error) {
      // Like the scheduler: a failed pass is logged and the next one tries again.
      process.stderr.write(`pass failed: ${error instanceof Error ? error.message : String(error)}\n`);
      await sleep(100);
    }
  }
  await app.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`engine-worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
