import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it('runs on no environment at all, with the contract defaults, a generated admin token and the sandbox', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('./data');
    expect(config.providerTimeoutMs).toBe(10000);
    expect(config.providerMaxConcurrency).toBe(16);
    expect(config.schedulerEnabled).toBe(true);
    expect(config.billingIntervalMs).toBe(60000);
    expect(config.billingMaxCatchUpPeriods).toBe(3);
    expect(config.dunningRetryDelays).toEqual(['1d', '3d', '5d', '7d']);
    expect(config.dunningRetryDelaysMs).toEqual([1, 3, 5, 7].map((d) => d * 86_400_000));
    expect(config.dunningFinalAction).toBe('cancel');
    expect(config.testClock).toBe(false);
    expect(config.usesSandbox).toBe(true);
    expect(config.sandboxPort).toBeUndefined();
    expect(config.sandboxHost).toBe('127.0.0.1');
    expect(config.adminTokenGenerated).toBe(true);
    expect(config.adminToken).toMatch(/^[0-9a-f]{48}$/);
    expect(loadConfig({}).adminToken).not.toBe(config.adminToken);
  });

  it('reads every variable of the contract', () => {
    const config = loadConfig({
      PORT: '8080',
      ADMIN_TOKEN: 'a-very-long-admin-token',
      DATABASE_URL: 'postgres://u:p@db:5432/billing',
      DATA_DIR: '/var/lib/billing',
      PROVIDER_URL: 'https://api.example.com/',
      PROVIDER_API_KEY: 'key',
      PROVIDER_SHOP_ID: 'shop-1',
      PROVIDER_TIMEOUT_MS: '5000',
      PROVIDER_MAX_CONCURRENCY: '4',
      SANDBOX_PORT: '8090',
      SANDBOX_HOST: '0.0.0.0',
      SCHEDULER_ENABLED: 'false',
      BILLING_INTERVAL_MS: '1000',
      BILLING_MAX_CATCH_UP_PERIODS: '5',
      DUNNING_RETRY_DELAYS: '12h, 2d',
      DUNNING_FINAL_ACTION: 'unpaid',
      TEST_CLOCK: 'true',
      PAYOUT_IDENTITY_ID: '10036274',
      PAYOUT_WALLET_ID: '10068321',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      adminToken: 'a-very-long-admin-token',
      adminTokenGenerated: false,
      databaseUrl: 'postgres://u:p@db:5432/billing',
      dataDir: '/var/lib/billing',
      providerUrl: 'https://api.example.com',
      providerApiKey: 'key',
      providerShopId: 'shop-1',
      providerTimeoutMs: 5000,
      providerMaxConcurrency: 4,
      sandboxPort: 8090,
      sandboxHost: '0.0.0.0',
      schedulerEnabled: false,
      billingIntervalMs: 1000,
      billingMaxCatchUpPeriods: 5,
      dunningRetryDelaysMs: [43_200_000, 172_800_000],
      dunningFinalAction: 'unpaid',
      testClock: true,
      payoutIdentityId: '10036274',
      payoutWalletId: '10068321',
      logLevel: 'debug',
    });
    expect(config.usesSandbox).toBe(false);
  });

  it('lists every problem at once, each with its fix', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', PROVIDER_TIMEOUT_MS: '-1', DUNNING_RETRY_DELAYS: '1 day', DUNNING_FINAL_ACTION: 'pause', SCHEDULER_ENABLED: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect((error as ConfigError).problems).toHaveLength(5);
    for (const name of ['PORT', 'PROVIDER_TIMEOUT_MS', 'DUNNING_RETRY_DELAYS', 'DUNNING_FINAL_ACTION', 'SCHEDULER_ENABLED']) {
      expect(message).toContain(name);
    }
    expect(message).toContain('README.md');
  });

  it.each([
    [{ NODE_ENV: 'production', PROVIDER_URL: 'https://p', PROVIDER_API_KEY: 'k', PROVIDER_SHOP_ID: 's' }, 'ADMIN_TOKEN is required'],
    [{ NODE_ENV: 'production', ADMIN_TOKEN: 'a-very-long-admin-token' }, 'PROVIDER_URL is required'],
    [{ NODE_ENV: 'Production', ADMIN_TOKEN: 'a-very-long-admin-token' }, 'PROVIDER_URL is required'],
    [{ NODE_ENV: ' PRODUCTION ', PROVIDER_URL: 'https://p', PROVIDER_API_KEY: 'k', PROVIDER_SHOP_ID: 's' }, 'ADMIN_TOKEN is required'],
    [{ NODE_ENV: 'production', BILLING_MAX_CATCH_UP_PERIODS: '0' }, 'BILLING_MAX_CATCH_UP_PERIODS must be an integer'],
    [{ NODE_ENV: 'production', ADMIN_TOKEN: 'a-very-long-admin-token', PROVIDER_URL: 'https://p', PROVIDER_API_KEY: 'k', PROVIDER_SHOP_ID: 's', TEST_CLOCK: 'true' }, 'TEST_CLOCK must not be enabled'],
    [{ PROVIDER_URL: 'https://p' }, 'PROVIDER_API_KEY is required'],
    [{ PROVIDER_URL: 'https://p', PROVIDER_API_KEY: 'k' }, 'PROVIDER_SHOP_ID is required'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must look like postgres://'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters'],
    [{ SANDBOX_PORT: '0' }, 'SANDBOX_PORT must be an integer between 1 and 65535'],
    [{ SANDBOX_PORT: '65536' }, 'SANDBOX_PORT must be an integer between 1 and 65535'],
    [{ SANDBOX_PORT: 'eighty' }, 'SANDBOX_PORT must be an integer between 1 and 65535'],
    [{ SANDBOX_HOST: 'everywhere' }, 'SANDBOX_HOST must be the IP address the built-in sandbox listens on'],
    [{ BILLING_TAX_RATES: '22%,twenty%' }, 'BILLING_TAX_RATES: "twenty%" is not a VAT rate'],
    [{ BILLING_TAX_RATES: '22%,22/120' }, 'BILLING_TAX_RATES: "22/120" is not a VAT rate'],
    [{ BILLING_TAX_RATES: '22%,10%,22%' }, 'BILLING_TAX_RATES lists 22% twice'],
    [{ BILLING_TAX_RATES: ' ' }, 'BILLING_TAX_RATES must list at least one rate'],
    [{ RECOVERY_LINK_TTL: '2 weeks' }, 'RECOVERY_LINK_TTL must be a duration such as 30s, 15m, 12h or 14d'],
    [{ RECOVERY_LINK_TTL: '0d' }, 'RECOVERY_LINK_TTL must be a duration such as 30s, 15m, 12h or 14d'],
    [{ PROVIDER_CHECKOUT_URL: 'checkout.example.com' }, 'PROVIDER_CHECKOUT_URL must be the http(s) URL'],
    [{ RECOVERY_PAGE_RATE_LIMIT: 'lots' }, 'RECOVERY_PAGE_RATE_LIMIT must be a positive count'],
  ])('refuses %j', (env, expected) => {
    expect(() => loadConfig(env)).toThrow(expected);
  });

  it('takes the VAT rates in force by default, and a list of its own as given', () => {
    expect(loadConfig({}).taxRates).toEqual(['0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122']);
    expect(loadConfig({ BILLING_TAX_RATES: ' 22% , 22/122,20% ' }).taxRates).toEqual(['22%', '22/122', '20%']);
  });

  it('reads the recovery links settings: 14 days and the sandbox form by default', () => {
    expect(loadConfig({})).toMatchObject({ recoveryLinkTtlMs: 14 * 86_400_000, providerCheckoutUrl: undefined, recoveryPageRateLimit: '60/m' });
    expect(loadConfig({ RECOVERY_LINK_TTL: '30s', PROVIDER_CHECKOUT_URL: 'https://checkout.example.com/v1/checkout.html' })).toMatchObject({
      recoveryLinkTtlMs: 30_000,
      providerCheckoutUrl: 'https://checkout.example.com/v1/checkout.html',
    });
    expect(loadConfig({ RECOVERY_LINK_TTL: '12h' }).recoveryLinkTtlMs).toBe(12 * 3_600_000);
  });

  it('starts in production with everything it needs', () => {
    const config = loadConfig({ NODE_ENV: 'production', ADMIN_TOKEN: 'a-very-long-admin-token', PROVIDER_URL: 'https://p', PROVIDER_API_KEY: 'k', PROVIDER_SHOP_ID: 's' });
    expect(config.production).toBe(true);
  });
});
