import { MetricsService } from '../../../src/common/metrics/metrics.service';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { ProcessingGateway } from '../../../src/gateway/processing.gateway';
import { ProviderHttpClient } from '../../../src/gateway/provider-http.client';
import { WalletGateway } from '../../../src/gateway/wallet.gateway';
import { testConfig } from '../../support/test-config';
import type { Gateways } from './operation-cases';

export const SANDBOX_KEY = 'sandbox-api-key';

export interface Harness extends Gateways {
  client: ProviderHttpClient;
  metrics: MetricsService;
  close(): void;
}

/** The gateways wired by hand, as the brief allows: real client, real HTTP, the given base URL. */
export function gatewaysFor(url: string, options: { apiKey?: string; timeoutMs?: number; maxConcurrency?: number } = {}): Harness {
  const config = testConfig({
    PROVIDER_URL: url,
    PROVIDER_API_KEY: options.apiKey ?? SANDBOX_KEY,
    PROVIDER_SHOP_ID: 'sandbox-shop',
    PROVIDER_TIMEOUT_MS: String(options.timeoutMs ?? 500),
    PROVIDER_MAX_CONCURRENCY: String(options.maxConcurrency ?? 16),
  });
  const metrics = new MetricsService();
  const client = new ProviderHttpClient(config, new RuntimeSettings('unused', url), metrics);
  return { client, metrics, processing: new ProcessingGateway(client), wallet: new WalletGateway(client), close: () => client.close() };
}
