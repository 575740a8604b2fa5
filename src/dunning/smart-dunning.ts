import { DateTime } from 'luxon';
import { parseDuration } from '../common/duration';
import { respectCap } from './attempt-cap';
import type { ChargeAttemptHistory } from './charge-attempt-history';
import { HARD_DECLINE_CODES } from './decline-codes';

/** What a decline says about when (and whether) the same card may pay. */
export type DeclineClass = 'insufficient_funds' | 'issuer_refusal' | 'technical' | 'hard';

/**
 * How a class is retried: after the next payday window at the morning hour; on a growing ladder of days at the
 * morning hour; on a short backoff (kept inside the allowed hours); or not at all until a new card is bound.
 */
export type RetryTiming = 'payday' | 'spaced' | 'backoff' | 'await_card';

/** One rule: which codes (any segment of the provider's code path) fall in the class, and how it is retried. */
export interface DeclineClassRule {
  class: DeclineClass;
  codes: string[];
  timing: RetryTiming;
  /** `spaced` and `backoff`: the delays, each from the previous attempt; their count is the class's own budget. */
  delays: string[];
  /** When the budget is spent: go on as this class, or wait for a new card. */
  thenClass: DeclineClass | null;
}

/** The smart strategy as data (`GET /api/v1/dunning/rules` answers it). */
export interface SmartDunningRules {
  /** Local days of month on which wages arrive (BILLING_PAYDAYS). */
  paydays: number[];
  /** A payday window: the payday and the days after it, this many days long in all. */
  paydayWindowDays: number;
  /** Local hour of a retry timed by days (payday, spaced). */
  morningHour: number;
  /** Every attempt falls in [allowedFromHour:00, allowedUntilHour:00) in the subscription's zone. */
  allowedFromHour: number;
  allowedUntilHour: number;
  /** At most this many attempts on one card in any 30 days (BILLING_MAX_ATTEMPTS_PER_CARD_30D). */
  maxAttemptsPer30Days: number;
  /** Rules tried in order; the first whose codes match a segment of the code path wins; the last is the default. */
  classes: DeclineClassRule[];
}


export function defaultSmartRules(paydays: number[] = [1, 15], maxAttemptsPer30Days = 15): SmartDunningRules {
  return {
    paydays: [...paydays].sort((a, b) => a - b),
    paydayWindowDays: 2,
    morningHour: 9,
    allowedFromHour: 8,
    allowedUntilHour: 21,
    maxAttemptsPer30Days,
    classes: [
      { class: 'hard', codes: HARD_DECLINE_CODES, timing: 'await_card', delays: [], thenClass: null },
      {
        class: 'technical',
        codes: ['temporarily_unavailable', 'processing_deadline_reached', 'timeout', 'payment_cancelled', 'provider_error'],
        timing: 'backoff',
        delays: ['15m', '1h', '4h', '12h', '1d'],
        thenClass: 'issuer_refusal',
      },
      // Once the next payday window lies past the end of dunning, no retry can meet fresh funds: ask for a new card
      // for the rest of the window (tried at once when bound) instead of ending dunning early.
      { class: 'insufficient_funds', codes: ['insufficient_funds', 'account_limit_exceeded', 'provider_limit_exceeded'], timing: 'payday', delays: [], thenClass: 'hard' },
      // Do-not-honor and anything unknown: up to 8 tries in all, front-loaded and spread over the default 21 days
      // (Stripe recommends 8 tries, Paddle 7 retries in 30 days, Recurly 90 % of recoveries within 10 days), far
      // under the per-card cap; then ask for a new card.
      { class: 'issuer_refusal', codes: ['rejected_by_issuer'], timing: 'spaced', delays: ['1d', '2d', '2d', '3d', '3d', '4d', '4d'], thenClass: 'hard' },
    ],
  };
}

/** The rule for a code path; unknown codes are issuer refusals (the last rule). */
export function ruleFor(rules: SmartDunningRules, codePath: string): DeclineClassRule {
  const parts = codePath.split(':');
  return rules.classes.find((r) => parts.some((p) => r.codes.includes(p))) ?? byClass(rules, 'issuer_refusal');
}

function byClass(rules: SmartDunningRules, cls: DeclineClass): DeclineClassRule {
  const rule = rules.classes.find((r) => r.class === cls);
  if (!rule) throw new Error(`smart dunning rules lack the class ${cls}`);
  return rule;
}

/** `t` itself when inside the allowed hours in `zone`, else the next opening (allowedFromHour:00 local). */
export function clampToAllowedHours(rules: SmartDunningRules, t: Date, zone: string): Date {
  const local = DateTime.fromJSDate(t, { zone });
  if (local.hour >= rules.allowedFromHour && local.hour < rules.allowedUntilHour) return t;
  const day = local.hour < rules.allowedFromHour ? local : local.plus({ days: 1 });
  return day.set({ hour: rules.allowedFromHour, minute: 0, second: 0, millisecond: 0 }).toJSDate();
}

/** The morning hour of the local day `t` falls on. */
function morningOf(rules: SmartDunningRules, t: DateTime): DateTime {
  return t.set({ hour: rules.morningHour, minute: 0, second: 0, millisecond: 0 });
}

function inPaydayWindow(rules: SmartDunningRules, day: DateTime): boolean {
  return rules.paydays.some((payday) => {
    for (let k = 0; k < rules.paydayWindowDays; k++) {
      // A payday past the month's end (31 in February) is paid on its last day.
      const start = day.set({ day: Math.min(payday, day.daysInMonth ?? 28) });
      if (start.plus({ days: k }).hasSame(day, 'day')) return true;
      const previous = day.minus({ months: 1 });
      const startPrev = previous.set({ day: Math.min(payday, previous.daysInMonth ?? 28) });
      if (startPrev.plus({ days: k }).hasSame(day, 'day')) return true;
    }
    return false;
  });
}

/** The first morning in a payday window on a local day after the one of `after`. */
export function nextPaydayMorning(rules: SmartDunningRules, after: Date, zone: string): Date {
  let day = DateTime.fromJSDate(after, { zone }).startOf('day').plus({ days: 1 });
  for (let i = 0; i < 40 && !inPaydayWindow(rules, day); i++) day = day.plus({ days: 1 });
  return morningOf(rules, day).toJSDate();
}

/** When a new attempt may start at the earliest: the cap kept, inside the allowed hours. */
export function earliestAllowedAttempt(rules: SmartDunningRules, attemptTimes: readonly Date[], candidate: Date, zone: string): Date {
  // Moving later only lets attempts leave the window, so clamping after the cap keeps the cap.
  return clampToAllowedHours(rules, respectCap(rules.maxAttemptsPer30Days, attemptTimes, candidate), zone);
}


export type SmartDecision =
  | { kind: 'retry'; at: Date; declineClass: DeclineClass }
  | { kind: 'await_card'; declineClass: DeclineClass }
  | { kind: 'give_up'; declineClass: DeclineClass };

/**
 * What follows a decline under the smart strategy. `attempts`: the charge's attempts on the current card,
 * the declined one last (its errorCode the decline's). `deadline`: the end of dunning (start + maxDays).
 */
export function decideAfterDecline(rules: SmartDunningRules, attempts: readonly ChargeAttemptHistory[], zone: string, deadline: Date): SmartDecision {
  const last = attempts[attempts.length - 1];
  const classes = attempts.map((a) => (a.errorCode ? ruleFor(rules, a.errorCode).class : null));
  let rule = ruleFor(rules, last.errorCode ?? 'unknown');
  // Each class spends its own budget; a spent budget hands over to the next class (with that class's count). A
  // payday class whose next window falls past the deadline hands over the same way.
  for (let hops = 0; hops <= rules.classes.length; hops++) {
    const used = Math.max(1, classes.filter((c) => c === rule.class).length);
    if (rule.timing === 'await_card') return { kind: 'await_card', declineClass: rule.class };
    const spent = (rule.timing === 'spaced' || rule.timing === 'backoff') && used > rule.delays.length;
    if (spent) {
      if (rule.thenClass) rule = byClass(rules, rule.thenClass);
      else return { kind: 'await_card', declineClass: rule.class };
      continue;
    }
    const retryAt = earliestAllowedAttempt(
      rules,
      attempts.map((a) => a.attemptedAt),
      candidateAfter(rules, rule, used, last.attemptedAt, zone),
      zone,
    );
    if (retryAt.getTime() <= deadline.getTime()) return { kind: 'retry', at: retryAt, declineClass: rule.class };
    if (rule.timing === 'payday' && rule.thenClass) {
      rule = byClass(rules, rule.thenClass);
      continue;
    }
    return { kind: 'give_up', declineClass: rule.class };
  }
  throw new Error('smart dunning rules hand over in a cycle');
}

/** The wished time of the `used`-th retry of `rule` after an attempt at `at`, before the cap and allowed hours. */
function candidateAfter(rules: SmartDunningRules, rule: DeclineClassRule, used: number, at: Date, zone: string): Date {
  let candidate: Date;
  if (rule.timing === 'payday') candidate = nextPaydayMorning(rules, at, zone);
  else if (rule.timing === 'spaced') candidate = morningOf(rules, DateTime.fromJSDate(new Date(at.getTime() + parseDuration(rule.delays[used - 1])), { zone })).toJSDate();
  else candidate = new Date(at.getTime() + parseDuration(rule.delays[used - 1]));
  return candidate.getTime() <= at.getTime() ? new Date(at.getTime() + 3_600_000) : candidate;
}

/**
 * The attempts made on the card in use: those after the last decline that waited for a new card (a charge only
 * leaves that wait when a new card is bound). Budgets and the cap count these only. Without the charge's zone and deadline
 * a wait that only the deadline caused (insufficient funds past the last payday in reach) is not seen, which can only
 * count more attempts, never fewer. The last attempt is always kept:
 * it is the one being decided (or the latest on the card).
 */
export function attemptsOnCurrentCard<T extends ChargeAttemptHistory>(rules: SmartDunningRules, attempts: readonly T[], zone = 'UTC', deadline = new Date(8.64e15)): T[] {
  let start = 0;
  for (let i = 0; i < attempts.length - 1; i++) {
    if (!attempts[i].errorCode) continue;
    const decision = decideAfterDecline(rules, attempts.slice(start, i + 1), zone, deadline);
    if (decision.kind === 'await_card') start = i + 1;
  }
  return attempts.slice(start);
}
