/** How the gateway repeats a call whose failure is known to be safe to repeat (see ProviderHttpClient). */
export interface ProviderRetryOptions {
  /** Retries after the first attempt; 3 means at most 4 HTTP requests per call. */
  maxRetries: number;
  /** Backoff before the first retry; each later one doubles, with ±25% jitter. */
  initialDelayMs: number;
  maxDelayMs: number;
}

/** Optional Nest provider token to override the defaults (tests, tuning). */
export const PROVIDER_RETRY_OPTIONS = Symbol('PROVIDER_RETRY_OPTIONS');

export const DEFAULT_PROVIDER_RETRY_OPTIONS: ProviderRetryOptions = Object.freeze({
  maxRetries: 3,
  initialDelayMs: 100,
  maxDelayMs: 2_000,
});
