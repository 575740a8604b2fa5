import { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { DestinationStream } from 'pino';
import { createApp } from '../../src/app.factory';
import type { AppModuleOptions } from '../../src/app.module';
import { BillingTuning } from '../../src/billing/billing-tuning';
import { PayoutTuning } from '../../src/payouts/payout-tuning';
import { ProviderWebhookRegistrationService } from '../../src/provider-webhooks/provider-webhook-registration.service';
import { RuntimeSettings } from '../../src/config/runtime-settings';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/sandbox-server';
import { FAST_WORK_TUNING } from './fast-work-tuning';
import { SandboxClient, startTestSandbox } from './sandbox-client';
import { testConfig, TEST_ADMIN_TOKEN } from './test-config';
import { testDatabaseUrl } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  sandbox: SandboxHandle;
  /** The provider API and the controls of that sandbox. */
  sandboxClient: SandboxClient;
  /** supertest against the admin API, with the admin token already set. */
  api: () => TestAgent;
  /** The admin API's own address, when the app listens (`listen`). */
  url?: string;
  close(): Promise<void>;
}

/** The whole daemon over real HTTP: the test database, a real sandbox on its own port, no scheduler unless asked. */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    sandbox?: SandboxHandle;
    sandboxOptions?: Partial<SandboxOptions>;
    /** Captures the JSON log lines (set LOG_LEVEL in env to see them). */
    logDestination?: DestinationStream;
    billingTuning?: Partial<BillingTuning>;
    payoutTuning?: Partial<PayoutTuning>;
    refundTuning?: AppModuleOptions['refundTuning'];
    extraImports?: AppModuleOptions['extraImports'];
    workTuning?: AppModuleOptions['workTuning'];
    /** Merchant webhook timings (a shortened retry schedule). */
    webhookTuning?: AppModuleOptions['webhookTuning'];
    /** Another database than the run's shared one (a test's own throwaway cluster). */
    databaseUrl?: string;
    /** Listen on a loopback port (the sandbox can then reach the app, e.g. its provider webhook endpoint). */
    listen?: boolean;
    /**
     * Register the provider's webhooks at this base URL (main.ts does it after listening); `true`: the app's own
     * address. Needs the scheduler (env SCHEDULER_ENABLED=true).
     */
    providerWebhooksAt?: string | true;
  } = {},
): Promise<TestApp> {
  const sandbox = options.sandbox ?? (await startTestSandbox({ shopId: SANDBOX_SHOP_ID, ...options.sandboxOptions }));
  const config = testConfig(options.env);
  const app = await createApp({
    config,
    runtime: new RuntimeSettings(options.databaseUrl ?? testDatabaseUrl(), sandbox.url),
    logDestination: options.logDestination,
    billingTuning: options.billingTuning,
    payoutTuning: options.payoutTuning,
    refundTuning: options.refundTuning,
    extraImports: options.extraImports,
    workTuning: { ...FAST_WORK_TUNING, ...options.workTuning },
    webhookTuning: options.webhookTuning,
  });
  await app.init();
  const server = app.getHttpServer();
  let url: string | undefined;
  if (options.listen || options.providerWebhooksAt === true) {
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  if (options.providerWebhooksAt) {
    await app.get(ProviderWebhookRegistrationService).start(options.providerWebhooksAt === true ? url : options.providerWebhooksAt);
  }
  return {
    app,
    sandbox,
    url,
    sandboxClient: new SandboxClient(sandbox.url),
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
