import { Logger } from '@nestjs/common';
import { MetricsService } from '../../../src/common/metrics/metrics.service';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { ProcessingGateway } from '../../../src/gateway/processing.gateway';
import { ProviderError } from '../../../src/gateway/provider-error';
import { ProviderHttpClient } from '../../../src/gateway/provider-http.client';
import { WalletGateway } from '../../../src/gateway/wallet.gateway';
import type { SandboxHandle } from '../../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../../support/sandbox-client';
import { SandboxControl } from '../../support/sandbox-control';
import { testConfig } from '../../support/test-config';
import { SHOP_ID, type Gateways } from './operation-cases';

export const SANDBOX_KEY = 'sandbox-api-key';

export interface Harness extends Gateways {
  client: ProviderHttpClient;
  metrics: MetricsService;
  close(): void;
}

/**
 * The provider timeout of gateways whose test is not about timeouts: far beyond what the in-process sandbox takes on a
 * busy machine, so no call there ends as an unknown outcome by accident.
 */
const PATIENT_TIMEOUT_MS = 10_000;

/** The gateways wired by hand, as the brief allows: real client, real HTTP, the given base URL. */
export function gatewaysFor(url: string, options: { apiKey?: string; timeoutMs?: number; maxConcurrency?: number } = {}): Harness {
  const config = testConfig({
    PROVIDER_URL: url,
    PROVIDER_API_KEY: options.apiKey ?? SANDBOX_KEY,
    PROVIDER_SHOP_ID: SHOP_ID,
    PROVIDER_TIMEOUT_MS: String(options.timeoutMs ?? PATIENT_TIMEOUT_MS),
    PROVIDER_MAX_CONCURRENCY: String(options.maxConcurrency ?? 16),
  });
  const metrics = new MetricsService();
  const client = new ProviderHttpClient(config, new RuntimeSettings('unused', url), metrics);
  return { client, metrics, processing: new ProcessingGateway(client), wallet: new WalletGateway(client), close: () => client.close() };
}

export interface GatewaySandbox {
  sandbox: SandboxHandle;
  control: SandboxControl;
  gw: Harness;
}

/**
 * Registers the hooks of a gateway contract suite: one sandbox for the file that takes the gateways' key and shop,
 * gateways wired to it (`onStart` hands both over; `gatewayOptions` as gatewaysFor takes them), and a clean sandbox
 * before each test.
 */
export function useGatewaySandbox(onStart: (started: GatewaySandbox) => void, gatewayOptions: { timeoutMs?: number } = {}): void {
  let started: GatewaySandbox | undefined;
  beforeAll(async () => {
    Logger.overrideLogger(false);
    const sandbox = await startTestSandbox({ apiKey: SANDBOX_KEY, shopId: SHOP_ID });
    started = { sandbox, control: new SandboxControl(sandbox.url), gw: gatewaysFor(sandbox.url, gatewayOptions) };
    onStart(started);
  });
  beforeEach(async () => {
    await started?.control.clearFaults();
    await started?.control.reset();
  });
  afterAll(async () => {
    started?.gw.close();
    await started?.sandbox.close();
  });
}

/** The ProviderError a call failed with; fails the test when it succeeded or threw anything else. */
export async function caught(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
