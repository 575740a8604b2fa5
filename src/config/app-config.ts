/** The daemon's configuration, read once at boot from the environment and then immutable. */
export class AppConfig {
  readonly port: number;
  readonly adminToken: string;
  /** True when ADMIN_TOKEN was not set and a random one was made for this run. */
  readonly adminTokenGenerated: boolean;
  /** SECRETS_KEY: what the key that encrypts stored secrets is derived from; unset, the admin token is. */
  readonly secretsKey: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** Unset: the built-in sandbox is started in-process and the gateway points at it. */
  readonly providerUrl: string | undefined;
  /** PUBLIC_URL: where the provider reaches this daemon's webhook endpoint; unset, polling only (or the local URL with the sandbox). */
  readonly publicUrl: string | undefined;
  readonly providerApiKey: string;
  readonly providerShopId: string;
  readonly providerTimeoutMs: number;
  readonly providerMaxConcurrency: number;
  /** SANDBOX_PORT: the built-in sandbox's port; unset, the one kept in DATA_DIR (or a new one, then kept). */
  readonly sandboxPort: number | undefined;
  /** SANDBOX_HOST: the address the built-in sandbox listens on (127.0.0.1; 0.0.0.0 in a container). */
  readonly sandboxHost: string;
  readonly schedulerEnabled: boolean;
  readonly billingIntervalMs: number;
  /** Most periods of one subscription charged in one pass after downtime; older missed ones are skipped. */
  readonly billingMaxCatchUpPeriods: number;
  readonly dunningRetryDelaysMs: readonly number[];
  readonly dunningRetryDelays: readonly string[];
  readonly dunningFinalAction: 'cancel' | 'unpaid';
  /** DUNNING_STRATEGY: the strategy of plans that give neither `strategy` nor `retryDelays`. */
  readonly dunningStrategy: 'smart' | 'fixed';
  /** BILLING_PAYDAYS: local days of month after which smart dunning retries insufficient funds. */
  /** BILLING_TAX_RATES: the VAT rates a new plan's lines may carry (the rates in force). */
  readonly taxRates: readonly string[];
  readonly billingPaydays: readonly number[];
  /** BILLING_MAX_ATTEMPTS_PER_CARD_30D: the card-network cap on attempts per card in any 30 days. */
  readonly maxAttemptsPerCard30d: number;
  /** DUNNING_HOLDOUT_PERCENT: share of smart subscriptions kept on the fixed ladder, to measure what smart recovers. */
  readonly dunningHoldoutPercent: number;
  /** BILLING_UPCOMING_DAYS: subscription.renewal_upcoming this many days before a renewal; 0 = off. */
  readonly upcomingDays: number;
  readonly testClock: boolean;
  readonly payoutIdentityId: string | undefined;
  readonly payoutWalletId: string | undefined;
  readonly logLevel: string;
  /** WEBHOOK_ALLOWED_HOSTS: hosts (names, addresses, CIDR ranges) webhooks may reach despite the address rules. */
  readonly webhookAllowedHosts: readonly string[];
  /** API_RATE_LIMIT: requests per credential, shared by the replicas (`100/s`). */
  readonly apiRateLimit: string;
  /** AUTH_FAILURE_LIMIT: failed authentications per client address, shared by the replicas (`10/m`). */
  readonly authFailureLimit: string;
  readonly production: boolean;
  /** RECOVERY_LINK_TTL in milliseconds (real time). */
  readonly recoveryLinkTtlMs: number;
  /** PROVIDER_CHECKOUT_URL: the provider's card form; undefined with the built-in sandbox (its hosted form) or when unset. */
  readonly providerCheckoutUrl: string | undefined;
  /** RECOVERY_PAGE_RATE_LIMIT: requests to /pay/ per client address. */
  readonly recoveryPageRateLimit: string;

  constructor(values: Omit<AppConfig, 'usesSandbox'>) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  get usesSandbox(): boolean {
    return this.providerUrl === undefined;
  }
}
