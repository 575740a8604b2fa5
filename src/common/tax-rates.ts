/**
 * VAT rates of cart lines. The provider's cart is the fiscal receipt's line data, and the rate goes to it exactly as
 * written. A rate is either a percentage of the price (`22%`: VAT added on top, the general rate; `5%` and `7%` for
 * payers on the simplified regime who owe VAT) or the matching inclusive fraction (`22/122`: VAT inside a price that
 * includes it, N/(100 + N)). The set a daemon accepts is BILLING_TAX_RATES: which rates are in force changes with the
 * law (Russia's standard rate is 22 % since 1 January 2026), not with a release.
 */

/** The rates in force in Russia since 2026-01-01: BILLING_TAX_RATES's default. */
export const DEFAULT_TAX_RATES = '0%,5%,7%,10%,22%,5/105,7/107,10/110,22/122';

/** Rates the law used before 2026 (and 2019): kept by older plans, accepted for new ones only when listed. */
export const FORMER_TAX_RATES = ['18%', '20%', '18/118', '20/120'] as const;

const PERCENT = /^(0|[1-9]\d?)%$/;
const FRACTION = /^([1-9]\d?)\/(\d{3})$/;

/** Whether `text` is written as a VAT rate: `N%` (0..99) or `N/(100 + N)` (1..99). */
export function isTaxRateSyntax(text: string): boolean {
  if (PERCENT.test(text)) return true;
  const fraction = FRACTION.exec(text);
  return fraction !== null && Number(fraction[2]) === 100 + Number(fraction[1]);
}

/**
 * BILLING_TAX_RATES parsed: the rates in the order given, or the reason the list is refused (the daemon then does not
 * start). Refused: an empty list, an entry that is not a rate, an entry listed twice.
 */
export function parseTaxRateList(text: string): { rates: string[] } | { error: string } {
  const rates = text.split(',').map((entry) => entry.trim());
  if (rates.length === 0 || rates.every((rate) => rate === '')) return { error: 'BILLING_TAX_RATES must list at least one rate, such as 22%' };
  for (const [index, rate] of rates.entries()) {
    if (!isTaxRateSyntax(rate)) {
      return { error: `BILLING_TAX_RATES: "${rate}" is not a VAT rate; write N% (0..99, such as 22%) or N/(100+N) (such as 22/122)` };
    }
    if (rates.indexOf(rate) !== index) return { error: `BILLING_TAX_RATES lists ${rate} twice` };
  }
  return { rates };
}
