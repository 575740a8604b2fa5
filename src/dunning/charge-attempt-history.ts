/** An earlier attempt of a charge: when it ran and, if declined, the provider's code path. */
export interface ChargeAttemptHistory {
  attemptedAt: Date;
  errorCode: string | null;
}
