import { DateTime } from 'luxon';
import { isValidTimeZone } from '../common/calendar/billing-calendar';

/**
 * Proration of a subscription change: pure functions, no clock, no Nest (contract v1.2, "Subscription changes").
 *
 * Days are local calendar days in the subscription's zone, so a DST day (23 or 25 hours) counts as one day and no
 * hour of a clock change can move a kopeck. `D` = the local dates from the period start's date up to (not including)
 * the period end's date; `d` = those from the change's local date on (the day of the change counts as remaining).
 * `credit = round(oldAmount × d / D)` only when the period was paid; `cost = round(newAmount × d / D)`;
 * `net = cost − credit`; `round` is half away from zero to the minor unit, computed exactly on integers.
 */

const MS_PER_DAY = 86_400_000;

/** The local calendar date of an instant in `timezone`, as a day number (days since 1970-01-01). */
export function localDayNumber(instant: Date, timezone: string): number {
  if (!isValidTimeZone(timezone)) throw new RangeError(`"${timezone}" is not an IANA time zone`);
  const local = DateTime.fromJSDate(instant, { zone: timezone });
  if (!local.isValid) throw new RangeError('instant must be a valid Date');
  return Date.UTC(local.year, local.month - 1, local.day) / MS_PER_DAY;
}

/** `D`: local dates from the start's date up to (not including) the end's date; at least 1. */
export function periodDays(periodStart: Date, periodEnd: Date, timezone: string): number {
  return Math.max(1, localDayNumber(periodEnd, timezone) - localDayNumber(periodStart, timezone));
}

/** `d`: local dates from the change's date up to (not including) the end's date, within 0..D. */
export function remainingDays(periodStart: Date, periodEnd: Date, changeAt: Date, timezone: string): number {
  const total = periodDays(periodStart, periodEnd, timezone);
  const left = localDayNumber(periodEnd, timezone) - localDayNumber(changeAt, timezone);
  return Math.min(total, Math.max(0, left));
}

/** round(amount × numerator / denominator), half away from zero, exact for any safe integers. */
export function prorateAmount(amount: number, numerator: number, denominator: number): number {
  for (const [name, v] of [['amount', amount], ['numerator', numerator], ['denominator', denominator]] as const) {
    if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be a safe integer, got ${v}`);
  }
  if (denominator <= 0) throw new RangeError(`denominator must be > 0, got ${denominator}`);
  const product = BigInt(amount) * BigInt(numerator);
  const sign = product < 0n ? -1n : 1n;
  const magnitude = product * sign;
  const d = BigInt(denominator);
  const rounded = (2n * magnitude + d) / (2n * d);
  return Number(rounded * sign);
}

export interface ProrationInput {
  timezone: string;
  periodStart: Date;
  periodEnd: Date;
  changeAt: Date;
  /** What the current period costs (plan amount × quantity), in minor units. */
  oldAmount: number;
  /** What the new plan and quantity cost per period, in minor units. */
  newAmount: number;
  /** The current period's charge succeeded: only then is there credit for its unused days. */
  paid: boolean;
}

export interface Proration {
  totalDays: number;
  remainingDays: number;
  credit: number;
  cost: number;
  net: number;
}

/** A change now within the same interval: the period is not moved. */
export function prorate(input: ProrationInput): Proration {
  checkAmount(input.oldAmount, 'oldAmount');
  checkAmount(input.newAmount, 'newAmount');
  const totalDays = periodDays(input.periodStart, input.periodEnd, input.timezone);
  const left = remainingDays(input.periodStart, input.periodEnd, input.changeAt, input.timezone);
  const credit = input.paid ? prorateAmount(input.oldAmount, left, totalDays) : 0;
  const cost = prorateAmount(input.newAmount, left, totalDays);
  return { totalDays, remainingDays: left, credit, cost, net: cost - credit };
}

/**
 * A change now to another interval: the old period ends at the change (credit for its unused days, when paid) and a
 * new period of the new plan starts then and costs its whole amount.
 */
export function prorateIntervalChange(input: ProrationInput): Proration {
  const old = prorate({ ...input, newAmount: 0 });
  return { totalDays: old.totalDays, remainingDays: old.remainingDays, credit: old.credit, cost: input.newAmount, net: input.newAmount - old.credit };
}

/** How much of a balance a charge uses: the provider is asked for `amount − applied`. */
export function applyBalance(balance: number, amount: number): { applied: number; remaining: number } {
  checkAmount(balance, 'balance');
  checkAmount(amount, 'amount');
  const applied = Math.min(balance, amount);
  return { applied, remaining: amount - applied };
}

function checkAmount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
}
