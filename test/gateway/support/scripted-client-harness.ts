import { Logger, LoggerService } from '@nestjs/common';
import { MetricsService } from '../../../src/common/metrics/metrics.service';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { ProcessingGateway } from '../../../src/gateway/processing.gateway';
import { ProviderHttpClient, ProviderRequest } from '../../../src/gateway/provider-http.client';
import { WalletGateway } from '../../../src/gateway/wallet.gateway';
import { testConfig } from '../../support/test-config';
import { CARDS } from '../../support/test-cards';
import { ScriptedProviderServer } from './scripted-provider.server';

export const API_KEY = 'test-api-key-do-not-leak-7f3c';
export const FAST_RETRY = { maxRetries: 3, initialDelayMs: 5, maxDelayMs: 20 };

/** Collects what the client logs, to prove no secret reaches a log line. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown): void {
    this.lines.push(String(message));
  }
  error(message: unknown): void {
    this.lines.push(String(message));
  }
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

export const read: ProviderRequest = { operation: 'getInvoice', method: 'GET', path: '/v2/processing/invoices/inv1', idempotent: true, expect: 'object' };
export const createWithKey: ProviderRequest = {
  operation: 'createInvoice',
  method: 'POST',
  path: '/v2/processing/invoices',
  body: { externalID: 'ext-1' },
  idempotent: true,
  expect: 'object',
};
export const createWithoutKey: ProviderRequest = {
  operation: 'createPaymentResource',
  method: 'POST',
  path: '/v2/processing/payment-resources',
  body: { paymentTool: { cardNumber: CARDS.success } },
  idempotent: false,
  expect: 'object',
};

export type MakeClient = (
  env?: Record<string, string>,
  url?: string,
  retry?: typeof FAST_RETRY,
) => { client: ProviderHttpClient; metrics: MetricsService; processing: ProcessingGateway; wallet: WalletGateway };

/** The timeout of a client whose test is not about timeouts: far beyond any pause of a busy machine. */
const PATIENT_TIMEOUT_MS = '10000';

/**
 * Registers the hooks of a ProviderHttpClient suite: a fresh scripted server and a fresh capturing logger for each
 * test (`onEach` hands both to the suite), clients and server closed after it. A server per test: a request that a
 * slow machine delivers late (a timed-out one, say) can never take a reply scripted for the next test. Answers the
 * client factory.
 */
export function useScriptedProvider(onEach: (current: { server: ScriptedProviderServer; logger: CapturingLogger }) => void): MakeClient {
  let server: ScriptedProviderServer;
  const clients: ProviderHttpClient[] = [];

  beforeEach(async () => {
    server = await ScriptedProviderServer.start();
    const logger = new CapturingLogger();
    Logger.overrideLogger(logger);
    onEach({ server, logger });
  });
  afterEach(async () => {
    clients.splice(0).forEach((c) => c.close());
    await server.close();
  });

  return (env = {}, url = server.url, retry = FAST_RETRY) => {
    const metrics = new MetricsService();
    const client = new ProviderHttpClient(
      testConfig({ PROVIDER_URL: 'http://provider.invalid', PROVIDER_API_KEY: API_KEY, PROVIDER_SHOP_ID: 'shop', PROVIDER_TIMEOUT_MS: PATIENT_TIMEOUT_MS, ...env }),
      new RuntimeSettings('unused', url),
      metrics,
      retry,
    );
    clients.push(client);
    return { client, metrics, processing: new ProcessingGateway(client), wallet: new WalletGateway(client) };
  };
}
