/** What a discount takes off: a percentage, or a fixed amount in the coupon's currency. */
export interface DiscountTerms {
  percentOff: number | null;
  amountOff: number | null;
}

/**
 * The discount on a period charge of `amount` (minor units): `percentOff` of it rounded half away from zero (amounts
 * are never negative, so half up), or `amountOff` but at most the amount (never a credit). Exact in BigInt.
 */
export function discountOf(amount: number, terms: DiscountTerms): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`No discount on an amount of ${amount}`);
  if (terms.percentOff !== null) return Number((BigInt(amount) * BigInt(terms.percentOff) * 2n + 100n) / 200n);
  if (terms.amountOff !== null) return Math.min(terms.amountOff, amount);
  return 0;
}
