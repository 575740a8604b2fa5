import { BillingInterval, periodEnd } from '../common/calendar/billing-calendar';
import { DiscountTerms, discountOf } from '../coupons/coupon-discount';
import { applyBalance, Proration, prorate, prorateIntervalChange } from './proration';

/**
 * What a subscription change costs, decided once from a snapshot: the preview answers it and the change applies
 * it, so the two cannot differ for the same body and clock. Pure: no clock, no Nest, no database.
 */

export type ChangeEffective = 'now' | 'period_end';

export interface PriceSide {
  planId: string;
  /** The plan's amount per period (one of each line), minor units. */
  planAmount: number;
  interval: BillingInterval;
  intervalCount: number;
  quantity: number;
  /** The discount in force on this side (the subscription's coupon, where it applies): amounts are after it. */
  discount?: DiscountTerms | null;
}

export interface ChangeQuoteInput {
  now: Date;
  timezone: string;
  status: 'active' | 'trialing';
  /** The current period; for a trial, the trial (start .. trial end). */
  periodStart: Date;
  periodEnd: Date;
  /** The current period's charge succeeded (a trial or an unpaid period earns no credit). */
  paid: boolean;
  current: PriceSide;
  next: PriceSide;
  effective?: ChangeEffective;
  prorate?: boolean;
  /** The customer's credit balance in the subscription's currency. */
  balance: number;
}

export interface ChangeQuote {
  effective: ChangeEffective;
  effectiveAt: Date;
  /** The new plan's periods start at the change (another interval, now): the anchor moves to `effectiveAt`. */
  reanchor: boolean;
  totalDays: number;
  remainingDays: number;
  credit: number;
  cost: number;
  net: number;
  /** Charged now (a `proration` charge, or the new period's first charge): max(net, 0). */
  chargeAmount: number;
  /** Of `chargeAmount`, what the balance covers; the provider is asked for the rest. */
  appliedFromBalance: number;
  /** Added to the credit balance now: max(−net, 0). */
  creditAdded: number;
  balanceAfter: number;
  nextChargeAt: Date;
  nextChargeAmount: number;
}

/** A period's amount on this side, after its discount (proration is on discounted amounts). */
export const amountOf = (side: PriceSide): number => {
  const gross = side.planAmount * side.quantity;
  return side.discount ? gross - discountOf(gross, side.discount) : gross;
};

const sameInterval = (a: PriceSide, b: PriceSide) => a.interval === b.interval && a.intervalCount === b.intervalCount;

/** `effective` when the body leaves it out: `now` for an upgrade (a higher amount per period), else `period_end`. */
export function defaultEffective(current: PriceSide, next: PriceSide): ChangeEffective {
  return amountOf(next) > amountOf(current) ? 'now' : 'period_end';
}

export function quoteChange(input: ChangeQuoteInput): ChangeQuote {
  const oldAmount = amountOf(input.current);
  const newAmount = amountOf(input.next);
  const effective = input.effective ?? defaultEffective(input.current, input.next);
  const zero = { totalDays: 0, remainingDays: 0, credit: 0, cost: 0, net: 0 };
  const nothingNow = { chargeAmount: 0, appliedFromBalance: 0, creditAdded: 0, balanceAfter: input.balance };

  if (effective === 'period_end') {
    return { effective, effectiveAt: input.periodEnd, reanchor: false, ...zero, ...nothingNow, nextChargeAt: input.periodEnd, nextChargeAmount: newAmount };
  }
  // During a trial the change applies at once, with no proration, and the trial goes on.
  if (input.status === 'trialing') {
    return { effective, effectiveAt: input.now, reanchor: false, ...zero, ...nothingNow, nextChargeAt: input.periodEnd, nextChargeAmount: newAmount };
  }
  const prorationInput = { timezone: input.timezone, periodStart: input.periodStart, periodEnd: input.periodEnd, changeAt: input.now, oldAmount, newAmount, paid: input.paid };
  if (!sameInterval(input.current, input.next)) {
    // The old period ends now; a period of the new plan starts now and is charged now, less the credit.
    // Without proration the new period is charged whole and the old one earns nothing back.
    const p: Proration = input.prorate === false ? zero : prorateIntervalChange(prorationInput);
    const owed = input.prorate === false ? newAmount : Math.max(p.net, 0);
    const nextChargeAt = periodEnd(input.now, input.timezone, input.next.interval, input.next.intervalCount, 0);
    return { effective, effectiveAt: input.now, reanchor: true, ...p, ...settle(owed, Math.max(-p.net, 0), input.balance), nextChargeAt, nextChargeAmount: newAmount };
  }
  if (input.prorate === false) {
    return { effective, effectiveAt: input.now, reanchor: false, ...zero, ...nothingNow, nextChargeAt: input.periodEnd, nextChargeAmount: newAmount };
  }
  const p = prorate(prorationInput);
  return { effective, effectiveAt: input.now, reanchor: false, ...p, ...settle(Math.max(p.net, 0), Math.max(-p.net, 0), input.balance), nextChargeAt: input.periodEnd, nextChargeAmount: newAmount };
}

/** A charge of `owed` now (the balance applied first) or `creditAdded` to the balance: never both. */
function settle(owed: number, creditAdded: number, balance: number) {
  const { applied } = applyBalance(balance, owed);
  return { chargeAmount: owed, appliedFromBalance: applied, creditAdded, balanceAfter: balance - applied + creditAdded };
}

export type BalanceEntryKind = 'proration_credit' | 'applied' | 'adjustment';

/** The credit balance ledger entries a quote makes when applied (signed amounts, in order). */
export function balanceEntriesOf(quote: ChangeQuote): { kind: BalanceEntryKind; amount: number }[] {
  const entries: { kind: BalanceEntryKind; amount: number }[] = [];
  if (quote.creditAdded > 0) entries.push({ kind: 'proration_credit', amount: quote.creditAdded });
  if (quote.appliedFromBalance > 0) entries.push({ kind: 'applied', amount: -quote.appliedFromBalance });
  return entries;
}
