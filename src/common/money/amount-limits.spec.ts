import { AmountOverLimitError, MAX_AMOUNT, maxQuantityFor, periodAmount, periodAmountWithinLimit } from './amount-limits';

describe('amount limits', () => {
  it('keeps a few figures at the limit exact in JavaScript arithmetic', () => {
    expect(9 * MAX_AMOUNT).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  });

  it('answers plan amount × quantity up to the limit, exactly', () => {
    expect(periodAmount(MAX_AMOUNT, 1)).toBe(MAX_AMOUNT);
    expect(periodAmount(1_000_000_000_000, 1000)).toBe(MAX_AMOUNT);
    expect(periodAmount(2500, 3)).toBe(7500);
    expect(periodAmount(0, 10_000)).toBe(0);
  });

  it('refuses a product past the limit, including those a double would round to something else', () => {
    // 999,999,999,999,999 × 11 is 10,999,999,999,999,989: as a double it reads 10,999,999,999,999,988.
    expect(BigInt(999_999_999_999_999 * 11)).not.toBe(999_999_999_999_999n * 11n);
    expect(periodAmountWithinLimit(999_999_999_999_999, 11)).toBeNull();
    expect(periodAmountWithinLimit(MAX_AMOUNT, 10_000)).toBeNull();
    expect(periodAmountWithinLimit(1_000_000_000_000, 1001)).toBeNull();
    expect(periodAmountWithinLimit(Number.MAX_SAFE_INTEGER + 1, 1)).toBeNull();
    expect(periodAmountWithinLimit(-1, 1)).toBeNull();
    expect(() => periodAmount(MAX_AMOUNT, 10_000)).toThrow(AmountOverLimitError);
    expect(() => periodAmount(MAX_AMOUNT, 10_000)).toThrow(`limit of ${MAX_AMOUNT} minor units per period (quantity at most 1 on this plan)`);
  });

  it('names the most seats a plan allows', () => {
    expect(maxQuantityFor(MAX_AMOUNT)).toBe(1);
    expect(maxQuantityFor(1_000_000_000_000)).toBe(1000);
    expect(maxQuantityFor(3)).toBe(333_333_333_333_333);
  });
});
