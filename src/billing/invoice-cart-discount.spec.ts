import fc from 'fast-check';
import { discountOf } from '../coupons/coupon-discount';
import { CartLine, cartAfterCredit, cartAfterDiscount, cartTotal, MAX_CART_LINES, MAX_LINE_PRODUCT_LENGTH } from './invoice-cart';

const RATES = ['0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122'];

const line: fc.Arbitrary<CartLine> = fc.record(
  {
    product: fc.string({ minLength: 1, maxLength: 40 }),
    price: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 10_000_000 })),
    quantity: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10_000 })),
    taxRate: fc.constantFrom(...RATES),
  },
  { requiredKeys: ['product', 'price', 'quantity'] },
);

/** A cart (up to the provider's line limit) and a discount below its total, edges included. */
const cartAndDiscount = fc
  .array(line, { minLength: 1, maxLength: MAX_CART_LINES })
  .chain((lines) => fc.tuple(fc.constant(lines), fc.oneof(fc.constant(0), fc.constant(Math.min(1, cartTotal(lines) - 1)), fc.integer({ min: 0, max: cartTotal(lines) - 1 }), fc.constant(cartTotal(lines) - 1))));

function byRate(lines: readonly CartLine[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(l.taxRate ?? 'none', (sums.get(l.taxRate ?? 'none') ?? 0) + l.price * l.quantity);
  return sums;
}

describe('the invoice cart after a coupon (a pure function)', () => {
  it('sums exactly to the total less the discount, every line at least 1, within the provider limits', () => {
    fc.assert(
      fc.property(cartAndDiscount, ([lines, discount]) => {
        const cart = cartAfterDiscount(lines, discount);
        expect(cartTotal(cart)).toBe(cartTotal(lines) - discount);
        expect(cart.length).toBeGreaterThanOrEqual(1);
        expect(cart.length).toBeLessThanOrEqual(Math.max(MAX_CART_LINES, lines.length));
        for (const l of cart) {
          expect(Number.isSafeInteger(l.price) && l.price >= 1).toBe(true);
          expect(Number.isSafeInteger(l.quantity) && l.quantity >= 1).toBe(true);
          expect(l.product.length).toBeLessThanOrEqual(MAX_LINE_PRODUCT_LENGTH);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps every line's tax rate: each rate's part loses its proportional share of the discount (within a unit a line)", () => {
    fc.assert(
      fc.property(cartAndDiscount, ([lines, discount]) => {
        const before = byRate(lines);
        const after = byRate(cartAfterDiscount(lines, discount));
        const total = cartTotal(lines);
        for (const rate of after.keys()) expect(before.has(rate)).toBe(true);
        for (const [rate, sum] of before) {
          const taken = sum - (after.get(rate) ?? 0);
          const count = lines.filter((l) => (l.taxRate ?? 'none') === rate).length;
          const exact = (BigInt(discount) * BigInt(sum)) / BigInt(total);
          expect(Math.abs(taken - Number(exact))).toBeLessThanOrEqual(count + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('maps lines in order: each original line becomes zero, one or two lines of its own rate, and the shares add up to the discount', () => {
    fc.assert(
      fc.property(cartAndDiscount, ([given, discount]) => {
        const lines = given.map((l, i) => ({ ...l, product: `#${i}#${l.product}` }));
        const cart = cartAfterDiscount(lines, discount);
        const origins = cart.map((l) => Number(/^#(\d+)#/.exec(l.product)?.[1]));
        expect(origins).toEqual([...origins].sort((a, b) => a - b));
        let taken = 0;
        lines.forEach((original, i) => {
          const mine = cart.filter((_, k) => origins[k] === i);
          expect(mine.length).toBeLessThanOrEqual(2);
          for (const l of mine) expect(l.taxRate).toBe(original.taxRate);
          const share = original.price * original.quantity - cartTotal(mine);
          taken += share;
          if (mine.length > 0 && share === 0) expect(mine).toEqual([original]);
          if (mine.length > 0 && share > 0) for (const l of mine) expect(l.product.endsWith(`, ${share} discount`)).toBe(true);
        });
        expect(taken).toBe(discount);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic, leaves a cart without discount as it is, and composes with the credit balance exactly', () => {
    fc.assert(
      fc.property(cartAndDiscount, fc.nat(), ([lines, discount], creditSeed) => {
        expect(cartAfterDiscount(lines, discount)).toEqual(cartAfterDiscount(structuredClone(lines), discount));
        expect(cartAfterDiscount(lines, 0)).toEqual(lines);
        const discounted = cartAfterDiscount(lines, discount);
        const credit = creditSeed % cartTotal(discounted);
        expect(cartTotal(cartAfterCredit(discounted, credit))).toBe(cartTotal(lines) - discount - credit);
      }),
      { numRuns: 200 },
    );
  });

  it('worked cases: even split keeps the quantity, an odd rest splits the line in two, a small rest merges it', () => {
    const seats: CartLine[] = [{ product: 'Seat', price: 1000, quantity: 3, taxRate: '22%' }];
    // 30 % of 3000 = 900: 2100 over 3 seats is 700 each.
    expect(cartAfterDiscount(seats, 900)).toEqual([{ product: 'Seat, 900 discount', price: 700, quantity: 3, taxRate: '22%' }]);
    // 1000 off: 2000 over 3 seats does not divide: 1 seat at 666 and 2 at 667.
    expect(cartAfterDiscount(seats, 1000)).toEqual([
      { product: 'Seat, 1000 discount', price: 666, quantity: 1, taxRate: '22%' },
      { product: 'Seat, 1000 discount', price: 667, quantity: 2, taxRate: '22%' },
    ]);
    // "The first month for 1": 2999 off leaves 1, below the quantity: one unit of the three seats.
    expect(cartAfterDiscount(seats, 2999)).toEqual([{ product: 'Seat × 3, 2999 discount', price: 1, quantity: 1, taxRate: '22%' }]);
  });

  it('worked cases: two rates share the discount in proportion, the largest remainder takes the odd unit', () => {
    const two: CartLine[] = [
      { product: 'Plan', price: 700, quantity: 1, taxRate: '22%' },
      { product: 'Support', price: 300, quantity: 1, taxRate: '0%' },
    ];
    // 15 % of 1000 = 150: 105 and 45, exact.
    expect(cartAfterDiscount(two, 150)).toEqual([
      { product: 'Plan, 105 discount', price: 595, quantity: 1, taxRate: '22%' },
      { product: 'Support, 45 discount', price: 255, quantity: 1, taxRate: '0%' },
    ]);
    // 333: 233.1 and 99.9: the second has the larger remainder and takes the unit (233 + 100).
    expect(cartAfterDiscount(two, 333)).toEqual([
      { product: 'Plan, 233 discount', price: 467, quantity: 1, taxRate: '22%' },
      { product: 'Support, 100 discount', price: 200, quantity: 1, taxRate: '0%' },
    ]);
    // 999 of 1000: the one unit left stays on one line, the other line is covered whole and left out.
    expect(cartAfterDiscount(two, 999)).toEqual([{ product: 'Plan, 699 discount', price: 1, quantity: 1, taxRate: '22%' }]);
    expect(() => cartAfterDiscount(two, 1000)).toThrow(RangeError);
  });

  it('the discount amount: percent rounded half away from zero, amount off at most the amount', () => {
    expect(discountOf(1999, { percentOff: 50, amountOff: null })).toBe(1000); // 999.5 → 1000
    expect(discountOf(1001, { percentOff: 50, amountOff: null })).toBe(501); // 500.5 → 501
    expect(discountOf(1003, { percentOff: 10, amountOff: null })).toBe(100); // 100.3 → 100
    expect(discountOf(1005, { percentOff: 10, amountOff: null })).toBe(101); // 100.5 → 101
    expect(discountOf(1000, { percentOff: 100, amountOff: null })).toBe(1000);
    expect(discountOf(1000, { percentOff: null, amountOff: 300 })).toBe(300);
    expect(discountOf(1000, { percentOff: null, amountOff: 5000 })).toBe(1000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 100 }), (amount, percentOff) => {
        const d = discountOf(amount, { percentOff, amountOff: null });
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(amount);
        expect(Math.abs(d * 100 - amount * percentOff)).toBeLessThanOrEqual(50);
      }),
    );
  });
});
