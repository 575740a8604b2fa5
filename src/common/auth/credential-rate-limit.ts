import type { Credential } from './actor';

/** The requests a credential may make (API_RATE_LIMIT): the rate-limits module provides it. */
export abstract class CredentialRateLimit {
  /** Counts one request of `credential`; over the limit, throws 429. */
  abstract admit(credential: Credential): Promise<void>;
}
