/**
 * The one bound on money figures, in minor units: a plan's amount, a line's price, a period's amount (plan amount ×
 * quantity), a charge, a credit and a customer's credit balance each stay at or below it. It is far enough below
 * 2^53 (about 9 × 10^15) that a sum or difference of a few such figures, as proration and the balance make, is still
 * an exact JavaScript number, and far below the 2^63 of the `bigint` columns that hold them.
 */
export const MAX_AMOUNT = 1_000_000_000_000_000;

/** A figure of money that would pass MAX_AMOUNT. */
export class AmountOverLimitError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'AmountOverLimitError';
  }
}

/** `planAmount` × `quantity`, exact, or null when it passes MAX_AMOUNT. */
export function periodAmountWithinLimit(planAmount: number, quantity: number): number | null {
  if (!Number.isSafeInteger(planAmount) || !Number.isSafeInteger(quantity) || planAmount < 0 || quantity < 0) return null;
  // A product of integers is rounded only past 2^53, and never down to MAX_AMOUNT or below: one within the limit is
  // exact and one past it is never taken for one within (no BigInt on the renewal path).
  const product = planAmount * quantity;
  return product <= MAX_AMOUNT ? product : null;
}

/** The most seats a plan of `planAmount` allows within MAX_AMOUNT (at least 1: a plan's own amount is bounded too). */
export function maxQuantityFor(planAmount: number): number {
  return planAmount <= 0 ? Number.MAX_SAFE_INTEGER : Math.max(1, Math.floor(MAX_AMOUNT / planAmount));
}

/** What a period of `planAmount` × `quantity` costs; AmountOverLimitError when that passes MAX_AMOUNT. */
export function periodAmount(planAmount: number, quantity: number): number {
  const amount = periodAmountWithinLimit(planAmount, quantity);
  if (amount === null) {
    throw new AmountOverLimitError(
      `the period amount ${planAmount} × ${quantity} passes the limit of ${MAX_AMOUNT} minor units per period (quantity at most ${maxQuantityFor(planAmount)} on this plan)`,
    );
  }
  return amount;
}
