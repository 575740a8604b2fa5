import { Transform } from 'class-transformer';
import { DEFAULT_TAX_RATES, parseTaxRateList } from '../common/tax-rates';
import { isRateLimit } from '../rate-limits/rate-limit';
import {
  IsIP,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const ALLOWED_HOST = String.raw`(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?|[0-9A-Fa-f:.]+(?:/\d{1,3})?)`;
const ALLOWED_HOSTS_PATTERN = new RegExp(`^\\s*${ALLOWED_HOST}(?:\\s*,\\s*${ALLOWED_HOST})*\\s*$`);
const DURATION_LIST_PATTERN = /^\s*(\d+\s*[smhdw])(\s*,\s*\d+\s*[smhdw])*\s*$/;

/** BILLING_TAX_RATES: a comma list of distinct VAT rates; the message says which entry is wrong. */
function IsTaxRateList(): PropertyDecorator {
  return ValidateBy({
    name: 'isTaxRateList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && 'rates' in parseTaxRateList(value),
      defaultMessage: (args) => (typeof args?.value === 'string' ? (parseTaxRateList(args.value) as { error: string }).error : 'BILLING_TAX_RATES must be a comma list of VAT rates'),
    },
  });
}

/** API_RATE_LIMIT, AUTH_FAILURE_LIMIT: a positive count per second, minute or hour. */
function IsRateLimit(name: string): PropertyDecorator {
  return ValidateBy({
    name: 'isRateLimit',
    validator: {
      validate: (value: unknown) => isRateLimit(value),
      defaultMessage: () => `${name} must be a positive count per second, minute or hour, such as 100/s, 600/m or 1000/h`,
    },
  });
}

/** The raw environment as the contract names it; validated once at boot. */
export class EnvSchema {
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer between 1 and 65535' })
  @Min(1, { message: 'PORT must be an integer between 1 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 1 and 65535' })
  PORT: number = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters (generate one with: openssl rand -hex 32)' })
  @MaxLength(512)
  ADMIN_TOKEN?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'SECRETS_KEY must be at least 16 characters (generate one with: openssl rand -hex 32)' })
  @MaxLength(512, { message: 'SECRETS_KEY must be at most 512 characters' })
  SECRETS_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, {
    message: 'DATABASE_URL must look like postgres://user:password@host:5432/dbname (or unset it to use the embedded database)',
  })
  DATABASE_URL?: string;

  @IsString()
  @MinLength(1)
  DATA_DIR: string = './data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'PROVIDER_URL must be an http(s) URL such as https://api.example.com (or unset it to use the built-in sandbox)' },
  )
  PROVIDER_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true },
    { message: 'PUBLIC_URL must be the http(s) base URL at which the provider reaches this daemon, such as https://billing.example.com (or unset it to poll only)' },
  )
  @MaxLength(900, { message: 'PUBLIC_URL must be at most 900 characters (the provider keeps webhook URLs of at most 1000)' })
  PUBLIC_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  PROVIDER_API_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(40, { message: 'PROVIDER_SHOP_ID must be at most 40 characters' })
  PROVIDER_SHOP_ID?: string;

  @Transform(toInt)
  @IsInt({ message: 'PROVIDER_TIMEOUT_MS must be an integer number of milliseconds (100..300000)' })
  @Min(100, { message: 'PROVIDER_TIMEOUT_MS must be an integer number of milliseconds (100..300000)' })
  @Max(300000, { message: 'PROVIDER_TIMEOUT_MS must be an integer number of milliseconds (100..300000)' })
  PROVIDER_TIMEOUT_MS: number = 10000;

  @Transform(toInt)
  @IsInt({ message: 'PROVIDER_MAX_CONCURRENCY must be an integer between 1 and 1024' })
  @Min(1, { message: 'PROVIDER_MAX_CONCURRENCY must be an integer between 1 and 1024' })
  @Max(1024, { message: 'PROVIDER_MAX_CONCURRENCY must be an integer between 1 and 1024' })
  PROVIDER_MAX_CONCURRENCY: number = 16;

  /** Unset: a port is chosen once and kept in DATA_DIR/sandbox-port, so hosted form links survive a restart. */
  @Transform((params) => toInt({ value: emptyToUndefined(params) }))
  @IsOptional()
  @IsInt({ message: 'SANDBOX_PORT must be an integer between 1 and 65535 (or unset it to keep the port chosen at the first start)' })
  @Min(1, { message: 'SANDBOX_PORT must be an integer between 1 and 65535 (or unset it to keep the port chosen at the first start)' })
  @Max(65535, { message: 'SANDBOX_PORT must be an integer between 1 and 65535 (or unset it to keep the port chosen at the first start)' })
  SANDBOX_PORT?: number;

  /** Where the built-in sandbox listens: loopback, or 0.0.0.0 in a container whose port is published (its control routes have no token). */
  @Transform((params) => emptyToUndefined(params) ?? '127.0.0.1')
  @IsIP(undefined, { message: 'SANDBOX_HOST must be the IP address the built-in sandbox listens on: 127.0.0.1 (the default) or, in a container, 0.0.0.0' })
  SANDBOX_HOST: string = '127.0.0.1';

  @Transform(toBool)
  @IsBoolean({ message: 'SCHEDULER_ENABLED must be true or false' })
  SCHEDULER_ENABLED: boolean = true;

  @Transform(toInt)
  @IsInt({ message: 'BILLING_INTERVAL_MS must be an integer number of milliseconds (100..86400000)' })
  @Min(100, { message: 'BILLING_INTERVAL_MS must be an integer number of milliseconds (100..86400000)' })
  @Max(86400000, { message: 'BILLING_INTERVAL_MS must be an integer number of milliseconds (100..86400000)' })
  BILLING_INTERVAL_MS: number = 60000;

  @Transform(toInt)
  @IsInt({ message: 'BILLING_MAX_CATCH_UP_PERIODS must be an integer from 1 to 1000' })
  @Min(1, { message: 'BILLING_MAX_CATCH_UP_PERIODS must be an integer from 1 to 1000' })
  @Max(1000, { message: 'BILLING_MAX_CATCH_UP_PERIODS must be an integer from 1 to 1000' })
  BILLING_MAX_CATCH_UP_PERIODS: number = 3;

  @Matches(DURATION_LIST_PATTERN, {
    message: 'DUNNING_RETRY_DELAYS must be a comma-separated list of durations such as 1d,3d,12h (units s, m, h, d, w)',
  })
  DUNNING_RETRY_DELAYS: string = '1d,3d,5d,7d';

  @IsIn(['cancel', 'unpaid'], { message: 'DUNNING_FINAL_ACTION must be cancel or unpaid' })
  DUNNING_FINAL_ACTION: 'cancel' | 'unpaid' = 'cancel';

  @IsIn(['smart', 'fixed'], { message: 'DUNNING_STRATEGY must be smart or fixed' })
  DUNNING_STRATEGY: 'smart' | 'fixed' = 'smart';

  @Matches(/^\s*([1-9]|[12]\d|3[01])\s*(,\s*([1-9]|[12]\d|3[01])\s*)*$/, {
    message: 'BILLING_PAYDAYS must be a comma-separated list of days of month from 1 to 31, such as 1,15',
  })
  BILLING_PAYDAYS: string = '1,15';

  @IsTaxRateList()
  BILLING_TAX_RATES: string = DEFAULT_TAX_RATES;

  @Transform(toInt)
  @IsInt({ message: 'BILLING_MAX_ATTEMPTS_PER_CARD_30D must be an integer from 1 to 100' })
  @Min(1, { message: 'BILLING_MAX_ATTEMPTS_PER_CARD_30D must be an integer from 1 to 100' })
  @Max(100, { message: 'BILLING_MAX_ATTEMPTS_PER_CARD_30D must be an integer from 1 to 100' })
  BILLING_MAX_ATTEMPTS_PER_CARD_30D: number = 15;

  @Transform(toInt)
  @IsInt({ message: 'DUNNING_HOLDOUT_PERCENT must be a whole percent from 0 (off) to 50' })
  @Min(0, { message: 'DUNNING_HOLDOUT_PERCENT must be a whole percent from 0 (off) to 50' })
  @Max(50, { message: 'DUNNING_HOLDOUT_PERCENT must be a whole percent from 0 (off) to 50' })
  DUNNING_HOLDOUT_PERCENT: number = 0;

  @Transform(toInt)
  @IsInt({ message: 'BILLING_UPCOMING_DAYS must be an integer from 0 (off) to 60' })
  @Min(0, { message: 'BILLING_UPCOMING_DAYS must be an integer from 0 (off) to 60' })
  @Max(60, { message: 'BILLING_UPCOMING_DAYS must be an integer from 0 (off) to 60' })
  BILLING_UPCOMING_DAYS: number = 7;

  @Transform(toBool)
  @IsBoolean({ message: 'TEST_CLOCK must be true or false' })
  TEST_CLOCK: boolean = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(40)
  PAYOUT_IDENTITY_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(40)
  PAYOUT_WALLET_ID?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL: string = 'info';

  /** Hosts opened to webhook delivery despite the address rules: names, IP addresses or CIDR ranges, comma-separated. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(ALLOWED_HOSTS_PATTERN, {
    message: 'WEBHOOK_ALLOWED_HOSTS must be a comma-separated list of host names, IP addresses or CIDR ranges, such as hooks.internal.example,10.1.2.0/24',
  })
  @MaxLength(4000)
  WEBHOOK_ALLOWED_HOSTS?: string;

  /** Requests per credential (ADMIN_TOKEN, each API key), counted across every replica; the burst is twice it. */
  @IsRateLimit('API_RATE_LIMIT')
  API_RATE_LIMIT: string = '100/s';

  /** How long a recovery link works, in real time. */
  @Matches(/^\s*[1-9]\d{0,6}\s*[smhd]\s*$/, {
    message: 'RECOVERY_LINK_TTL must be a duration such as 30s, 15m, 12h or 14d (a whole number above 0 and one unit of s, m, h or d)',
  })
  RECOVERY_LINK_TTL: string = '14d';

  /** The provider's card form that recovery links send customers to; unset, the built-in sandbox's hosted form. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'PROVIDER_CHECKOUT_URL must be the http(s) URL of the provider\'s card form, such as https://checkout.example.com/v1/checkout.html' },
  )
  @MaxLength(900, { message: 'PROVIDER_CHECKOUT_URL must be at most 900 characters' })
  PROVIDER_CHECKOUT_URL?: string;

  /** Requests to the recovery pages (/pay/…) per client address, across every replica; the burst is twice it. */
  @IsRateLimit('RECOVERY_PAGE_RATE_LIMIT')
  RECOVERY_PAGE_RATE_LIMIT: string = '60/m';

  /** Failed authentications per client address (bearer tokens and console sign-ins), across every replica; burst twice it. */
  @IsRateLimit('AUTH_FAILURE_LIMIT')
  AUTH_FAILURE_LIMIT: string = '10/m';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;
}
