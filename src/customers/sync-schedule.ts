import type { BankCardDetails } from '../gateway/provider-api.types';

/** After a transient provider failure (503, timeout, reset) the customer is read again this much later. */
export const RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * A binding we wrote as intent but never saw at the provider is given up after this long: payment tool tokens
 * live 64 minutes, so the provider can no longer start it, and every started binding shows in the events.
 */
export const UNSTARTED_BINDING_GIVE_UP_MS = 2 * 3_600_000;

/** Error code recorded on such a binding. */
export const BINDING_NOT_STARTED_CODE = 'binding_not_started';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Poll often while a payer is likely still at the form, then less and less; give up after 30 days. */
const POLL_LADDER: readonly { untilAgeMs: number; everyMs: number }[] = [
  { untilAgeMs: MINUTE, everyMs: 2_000 },
  { untilAgeMs: HOUR, everyMs: 15_000 },
  { untilAgeMs: DAY, everyMs: 5 * MINUTE },
  { untilAgeMs: 30 * DAY, everyMs: HOUR },
];

/**
 * Delay before the next read of a customer whose binding (or readiness) has been in progress for `ageMs`;
 * null once it has waited 30 days and the follower stops.
 */
export function nextPollDelayMs(ageMs: number): number | null {
  const age = Math.max(0, ageMs);
  const step = POLL_LADDER.find((s) => age < s.untilAgeMs);
  return step ? step.everyMs : null;
}

/** The card facts the daemon may keep: never the full number. */
export interface CardSummary {
  bin: string | null;
  lastDigits: string | null;
  paymentSystem: string | null;
}

/**
 * Picks bin, last digits and payment system out of the provider's card details (both the `bin`/`lastDigits` and
 * the `first6`/`last4` spellings). Digits are clipped to what a bin (≤ 8) and last digits (4) can be, so even a
 * provider bug that puts a whole card number there cannot store it.
 */
export function cardSummaryFrom(details: BankCardDetails | undefined): CardSummary | null {
  if (!details) return null;
  const binDigits = digitsOf(details.bin ?? details.first6);
  const lastDigits = digitsOf(details.lastDigits ?? details.last4);
  const paymentSystem = typeof details.paymentSystem === 'string' && details.paymentSystem !== '' ? details.paymentSystem.slice(0, 40) : null;
  const summary: CardSummary = {
    bin: binDigits === null ? null : binDigits.length > 8 ? binDigits.slice(0, 6) : binDigits,
    lastDigits: lastDigits === null ? null : lastDigits.slice(-4),
    paymentSystem,
  };
  return summary.bin === null && summary.lastDigits === null && summary.paymentSystem === null ? null : summary;
}

function digitsOf(value: string | undefined): string | null {
  if (typeof value !== 'string') return null;
  const digits = value.replace(/\D/g, '');
  return digits === '' ? null : digits;
}
