/** Refused credentials per client address (AUTH_FAILURE_LIMIT): the rate-limits module provides it. */
export abstract class AuthFailureLimit {
  /** Throws 429 while `address` is blocked for failed authentication by `via`. */
  abstract refuseIfBlocked(address: string, via: 'bearer'): void;

  /** Counts one refused credential from `address`. */
  abstract failed(address: string, via: 'bearer'): Promise<void>;
}
