import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { Logger } from 'nestjs-pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../../../src/app.module';
import { buildValidationPipe } from '../../../src/common/http/validation.pipe';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../../src/config/load-config';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { PayoutProcessorService, PayoutRunSummary } from '../../../src/payouts/payout-processor.service';
import { PayoutTuning } from '../../../src/payouts/payout-tuning';
import { SandboxHandle, startSandbox } from '../../../src/sandbox/sandbox-server';
import { testConfig, TEST_ADMIN_TOKEN } from '../../support/test-config';
import { testDatabaseUrl } from '../../support/test-database';

export const FAST_SANDBOX_DELAYS = { bindingMs: 5, paymentMs: 5, authorizeDestinationMs: 20, withdrawalMs: 10 };

/** Engine knobs short enough for tests: leases in seconds, backoffs and polls in milliseconds. */
export const FAST_PAYOUT_TUNING: Partial<PayoutTuning> = {
  leaseMs: 30_000,
  technicalBackoffMs: 20,
  maxTechnicalBackoffMs: 200,
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

/**
 * The whole daemon over real HTTP, like test/support/test-app.ts, plus what payout tests need: captured log lines
 * (at info level) and short payout tuning through an overridden PayoutTuning provider.
 */
export async function startPayoutTestApp(options: PayoutTestAppOptions = {}): Promise<PayoutTestApp> {
  const sandbox =
    options.sandbox ?? (await startSandbox({ port: 0, apiKey: SANDBOX_API_KEY, shopId: SANDBOX_SHOP_ID, quiet: true, delays: FAST_SANDBOX_DELAYS }));
  const config = testConfig({ LOG_LEVEL: 'info', ...options.env });
  const logs: string[] = [];
  const logDestination = { write: (line: string) => void logs.push(line) };
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, runtime: new RuntimeSettings(testDatabaseUrl(), sandbox.url), logDestination })],
  })
    .overrideProvider(PayoutTuning)
    .useValue(PayoutTuning.defaults(config, { ...FAST_PAYOUT_TUNING, ...options.tuning }))
    .compile();
  // The same setup as src/app.factory.ts createApp().
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(buildValidationPipe());
  app.useBodyParser('json', { limit: '5mb' });
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    sandbox,
    logs,
    processor: app.get(PayoutProcessorService),
    dataSource: app.get(DataSource),
    api: () => {
      const agent = request.agent(server);
      agent.set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
      return agent;
    },
    async close() {
      await app.close();
      if (!options.sandbox) await sandbox.close();
    },
  };
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
