import type { ChargeAttemptHistory } from './charge-attempt-history';

/** What follows a decline on the ladder: another attempt at `at`, a wait for a new card until `until`, or the end. */
export type DunningDecision = { kind: 'retry'; at: Date } | { kind: 'await_card'; until: Date } | { kind: 'give_up' };

/** The strategies a policy implements. */
export type DunningStrategy = 'fixed' | 'smart';

/**
 * How a subscription's declined charges are collected. Billing asks this and nothing else: it never branches on the
 * strategy. Two implementations: the fixed ladder and smart dunning.
 */
export interface DunningPolicy {
  readonly strategy: DunningStrategy;
  /** True when the plan asked for smart but the holdout keeps this subscription on the fixed ladder. */
  readonly heldOut: boolean;
  readonly finalAction: 'cancel' | 'unpaid';
  /** How long dunning may last from the first decline. */
  readonly windowMs: number;
  /** The fixed ladder's delays (empty under smart: its rules time each retry). */
  readonly retryDelays: readonly string[];
  /** Attempt n of N as the operator reads it: the ladder's length, or the per-card cap under smart. */
  readonly maxAttempts: number;
  /** Whether a scheduled retry is made at once when the customer binds a new card (else it keeps its time). */
  readonly retriesAtOnceOnNewCard: boolean;

  /** When dunning that started at `dunningStartedAt` ends. */
  deadline(dunningStartedAt: Date): Date;
  /** What follows the last of `history` (the charge's ladder attempts in order, the decline being decided last). */
  afterDecline(history: readonly ChargeAttemptHistory[], zone: string, dunningStartedAt: Date): DunningDecision;
  /** The earliest a scheduled attempt may start after `attempts` (all of the charge's attempts), at or after `now`. */
  allowedAt(attempts: readonly ChargeAttemptHistory[], now: Date, zone: string): Date;
  /** Like allowedAt for an operator's retry: only the card networks' cap applies, never the hours. */
  capAllowsAt(attempts: readonly ChargeAttemptHistory[], now: Date): Date;
}

/** The name a charge records for the policy that dunned it: a held-out subscription's is `holdout`, not `fixed`. */
export type DunningGroup = 'fixed' | 'smart' | 'holdout';

/** The group a charge dunned by `policy` is counted in. */
export function dunningGroup(policy: DunningPolicy): DunningGroup {
  return policy.heldOut ? 'holdout' : policy.strategy;
}
