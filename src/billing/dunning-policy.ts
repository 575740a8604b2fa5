/** What the provider's failure code says about retrying the same card. */
export type DeclineKind = 'hard' | 'soft';

/**
 * Codes after which the same card will not succeed (expired, invalid, lost, stolen, unknown issuer):
 * retrying costs network fees (Visa category 1) and never recovers, so collection waits for a new card.
 */
export const HARD_DECLINE_CODES = [
  'account_not_found',
  'account_stolen',
  'account_blocked',
  'card_expired',
  'card_number_invalid',
  'card_holder_invalid',
  'cvv_invalid',
  'issuer_not_found',
  'customer_not_ready',
];

/** Classifies a failure code path such as `authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired`. */
export function classifyDecline(codePath: string): DeclineKind {
  const parts = codePath.split(':');
  return parts.some((p) => HARD_DECLINE_CODES.includes(p)) ? 'hard' : 'soft';
}

/** Card-network rule: at most this many attempts per charge in a rolling window, whatever the ladder says. */
const MAX_ATTEMPTS_IN_WINDOW = 15;
export const ATTEMPT_WINDOW_MS = 30 * 86_400_000;

/**
 * When the next attempt may run after `declines` soft declines, the last at `lastAttemptAt`;
 * null when the ladder is exhausted. Each delay counts from the previous attempt.
 */
export function nextRetryAt(ladderMs: readonly number[], declines: number, lastAttemptAt: Date): Date | null {
  if (declines < 1 || declines > ladderMs.length) return null;
  return new Date(lastAttemptAt.getTime() + ladderMs[declines - 1]);
}

/** End of the dunning window: the first decline plus the whole ladder. Hard declines wait for a card until then. */
export function dunningDeadline(ladderMs: readonly number[], dunningStartedAt: Date): Date {
  return new Date(dunningStartedAt.getTime() + ladderMs.reduce((a, b) => a + b, 0));
}

/**
 * The earliest time a new attempt respects the 15-in-30-days cap, given the times of earlier attempts
 * (any order): `candidate` itself when the window has room.
 */
export function respectAttemptCap(attemptTimes: readonly Date[], candidate: Date): Date {
  const inWindow = attemptTimes
    .map((t) => t.getTime())
    .filter((t) => t > candidate.getTime() - ATTEMPT_WINDOW_MS)
    .sort((a, b) => a - b);
  if (inWindow.length < MAX_ATTEMPTS_IN_WINDOW) return candidate;
  // The oldest attempt that must leave the window before one more fits.
  const release = inWindow[inWindow.length - MAX_ATTEMPTS_IN_WINDOW] + ATTEMPT_WINDOW_MS + 1;
  return new Date(Math.max(candidate.getTime(), release));
}
