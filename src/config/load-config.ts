import { randomBytes } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { parseDuration, parseDurationList } from '../common/duration';
import { parseTaxRateList } from '../common/tax-rates';
import { AppConfig } from './app-config';
import { ConfigError } from './config-error';
import { EnvSchema } from './env.schema';

/** The sandbox accepts this key; it is only ever used when PROVIDER_URL is unset. */
export const SANDBOX_API_KEY = 'sandbox-api-key';
export const SANDBOX_SHOP_ID = 'sandbox-shop';

function flatten(errors: ValidationError[]): string[] {
  // One line per variable: several rules of one variable often share the same message.
  return errors.flatMap((e) => [...new Set(Object.values(e.constraints ?? {}))]);
}

/** Validates the environment into the typed config, or throws one ConfigError listing everything wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new EnvSchema());
  const raw: Record<string, unknown> = {};
  for (const key of [...known, 'ADMIN_TOKEN', 'SECRETS_KEY', 'DATABASE_URL', 'PROVIDER_URL', 'PROVIDER_API_KEY', 'PROVIDER_SHOP_ID', 'PAYOUT_IDENTITY_ID', 'PAYOUT_WALLET_ID', 'NODE_ENV', 'SANDBOX_PORT', 'WEBHOOK_ALLOWED_HOSTS', 'PROVIDER_CHECKOUT_URL']) {
    if (env[key] !== undefined) raw[key] = env[key];
  }
  const schema = plainToInstance(EnvSchema, raw, { exposeDefaultValues: true });
  const problems = flatten(validateSync(schema, { forbidUnknownValues: false }));

  // Compared without regard to case or spaces: "Production" must not slip past the production refusals.
  const production = schema.NODE_ENV?.trim().toLowerCase() === 'production';
  if (production && !schema.ADMIN_TOKEN) {
    problems.push('ADMIN_TOKEN is required when NODE_ENV=production (generate one with: openssl rand -hex 32)');
  }
  if (production && !schema.PROVIDER_URL) {
    problems.push('PROVIDER_URL is required when NODE_ENV=production: the built-in sandbox moves no real money');
  }
  if (production && schema.TEST_CLOCK === true) {
    problems.push('TEST_CLOCK must not be enabled when NODE_ENV=production: unset it or set TEST_CLOCK=false');
  }
  if (schema.PROVIDER_URL && !schema.PROVIDER_API_KEY) {
    problems.push('PROVIDER_API_KEY is required when PROVIDER_URL is set: use the merchant API key from the provider');
  }
  if (schema.PROVIDER_URL && !schema.PROVIDER_SHOP_ID) {
    problems.push('PROVIDER_SHOP_ID is required when PROVIDER_URL is set: use the shop id from the provider');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const delays = schema.DUNNING_RETRY_DELAYS.split(',').map((d) => d.trim()).filter((d) => d !== '');
  const adminTokenGenerated = !schema.ADMIN_TOKEN;
  return new AppConfig({
    port: schema.PORT,
    adminToken: schema.ADMIN_TOKEN ?? randomBytes(24).toString('hex'),
    adminTokenGenerated,
    secretsKey: schema.SECRETS_KEY,
    databaseUrl: schema.DATABASE_URL,
    dataDir: schema.DATA_DIR,
    providerUrl: schema.PROVIDER_URL?.replace(/\/+$/, ''),
    publicUrl: schema.PUBLIC_URL?.replace(/\/+$/, ''),
    providerApiKey: schema.PROVIDER_URL ? (schema.PROVIDER_API_KEY as string) : SANDBOX_API_KEY,
    providerShopId: schema.PROVIDER_URL ? (schema.PROVIDER_SHOP_ID as string) : (schema.PROVIDER_SHOP_ID ?? SANDBOX_SHOP_ID),
    providerTimeoutMs: schema.PROVIDER_TIMEOUT_MS,
    providerMaxConcurrency: schema.PROVIDER_MAX_CONCURRENCY,
    sandboxPort: schema.SANDBOX_PORT,
    sandboxHost: schema.SANDBOX_HOST,
    schedulerEnabled: schema.SCHEDULER_ENABLED,
    billingIntervalMs: schema.BILLING_INTERVAL_MS,
    billingMaxCatchUpPeriods: schema.BILLING_MAX_CATCH_UP_PERIODS,
    dunningRetryDelays: delays,
    dunningRetryDelaysMs: parseDurationList(schema.DUNNING_RETRY_DELAYS),
    dunningFinalAction: schema.DUNNING_FINAL_ACTION,
    dunningStrategy: schema.DUNNING_STRATEGY,
    taxRates: (parseTaxRateList(schema.BILLING_TAX_RATES) as { rates: string[] }).rates,
    billingPaydays: [...new Set(schema.BILLING_PAYDAYS.split(',').map((d) => Number(d.trim())))].sort((x, y) => x - y),
    maxAttemptsPerCard30d: schema.BILLING_MAX_ATTEMPTS_PER_CARD_30D,
    dunningHoldoutPercent: schema.DUNNING_HOLDOUT_PERCENT,
    upcomingDays: schema.BILLING_UPCOMING_DAYS,
    testClock: schema.TEST_CLOCK,
    payoutIdentityId: schema.PAYOUT_IDENTITY_ID,
    payoutWalletId: schema.PAYOUT_WALLET_ID,
    logLevel: schema.LOG_LEVEL,
    webhookAllowedHosts: (schema.WEBHOOK_ALLOWED_HOSTS ?? '').split(',').map((host) => host.trim()).filter((host) => host !== ''),
    apiRateLimit: schema.API_RATE_LIMIT.trim(),
    authFailureLimit: schema.AUTH_FAILURE_LIMIT.trim(),
    production,
    recoveryLinkTtlMs: parseDuration(schema.RECOVERY_LINK_TTL.replace(/\s+/g, '')),
    providerCheckoutUrl: schema.PROVIDER_CHECKOUT_URL,
    recoveryPageRateLimit: schema.RECOVERY_PAGE_RATE_LIMIT.trim(),
  });
}
