import fc from 'fast-check';
import { CartLine, cartAfterCredit, cartTotal, labelled, MAX_CART_LINES, MAX_LINE_PRODUCT_LENGTH, planCart, toInvoiceLines } from './invoice-cart';

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

/** A cart and a credit below its total (0 included): every case a charge the balance paid part of can meet. */
const cartAndCredit = fc
  .array(line, { minLength: 1, maxLength: MAX_CART_LINES })
  .chain((lines) => fc.tuple(fc.constant(lines), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: cartTotal(lines) - 1 }), fc.constant(cartTotal(lines) - 1))));

/** What each rate of the cart adds up to. */
function byRate(lines: readonly CartLine[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(l.taxRate ?? 'none', (sums.get(l.taxRate ?? 'none') ?? 0) + l.price * l.quantity);
  return sums;
}

describe('the invoice cart after the credit balance (a pure function)', () => {
  it('sums exactly to the total less the credit, every line at least 1 and no more lines than given', () => {
    fc.assert(
      fc.property(cartAndCredit, ([lines, credit]) => {
        const cart = cartAfterCredit(lines, credit);
        expect(cartTotal(cart)).toBe(cartTotal(lines) - credit);
        expect(cart.length).toBeGreaterThanOrEqual(1);
        expect(cart.length).toBeLessThanOrEqual(lines.length);
        for (const l of cart) {
          expect(Number.isSafeInteger(l.price) && l.price >= 1).toBe(true);
          expect(Number.isSafeInteger(l.quantity) && l.quantity >= 1).toBe(true);
          expect(l.product.length).toBeLessThanOrEqual(MAX_LINE_PRODUCT_LENGTH);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps every line's tax rate: each rate's part is its own less a share of the credit in proportion (within a unit a line)", () => {
    fc.assert(
      fc.property(cartAndCredit, ([lines, credit]) => {
        const before = byRate(lines);
        const after = byRate(cartAfterCredit(lines, credit));
        const total = cartTotal(lines);
        for (const rate of after.keys()) expect(before.has(rate)).toBe(true);
        for (const [rate, sum] of before) {
          const taken = sum - (after.get(rate) ?? 0);
          const count = lines.filter((l) => (l.taxRate ?? 'none') === rate).length;
          // The rate's exact share of the credit, in BigInt: each line's share is within one unit of its own.
          const exact = (BigInt(credit) * BigInt(sum)) / BigInt(total);
          expect(Math.abs(taken - Number(exact))).toBeLessThanOrEqual(count + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('maps lines in order, keeps the rate of each, and says on each line what the balance paid of it', () => {
    fc.assert(
      fc.property(cartAndCredit, ([given, credit]) => {
        // Products tagged with their place, so each line of the cart names the line it came from.
        const lines = given.map((l, i) => ({ ...l, product: `#${i}#${l.product}` }));
        const cart = cartAfterCredit(lines, credit);
        const origins = cart.map((l) => Number(/^#(\d+)#/.exec(l.product)?.[1]));
        expect(origins).toEqual([...origins].sort((a, b) => a - b));
        expect(new Set(origins).size).toBe(origins.length);
        let shares = 0;
        lines.forEach((original, i) => {
          const at = origins.indexOf(i);
          if (at < 0) {
            // Left out: the balance paid it whole.
            shares += original.price * original.quantity;
            return;
          }
          const l = cart[at];
          expect(l.taxRate).toBe(original.taxRate);
          const share = original.price * original.quantity - l.price * l.quantity;
          shares += share;
          expect(l.product.endsWith(`, ${share} from credit balance`)).toBe(share > 0);
          if (share === 0) expect(l).toEqual(original);
        });
        expect(shares).toBe(credit);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic and leaves a cart without credit as it is', () => {
    fc.assert(
      fc.property(cartAndCredit, ([lines, credit]) => {
        expect(cartAfterCredit(lines, credit)).toEqual(cartAfterCredit(structuredClone(lines), credit));
        expect(cartAfterCredit(lines, 0)).toEqual(lines);
      }),
    );
  });

  it('examples: a seat line that cannot keep its quantity becomes one unit, a line paid whole is left out', () => {
    const seats: CartLine[] = [{ product: 'Seat', price: 1000, quantity: 3, taxRate: '22%' }];
    expect(cartAfterCredit(seats, 600)).toEqual([{ product: 'Seat, 600 from credit balance', price: 800, quantity: 3, taxRate: '22%' }]);
    expect(cartAfterCredit(seats, 500)).toEqual([{ product: 'Seat × 3, 500 from credit balance', price: 2500, quantity: 1, taxRate: '22%' }]);
    const two: CartLine[] = [
      { product: 'Plan', price: 100, quantity: 1, taxRate: '22%' },
      { product: 'Setup fee', price: 100, quantity: 1, taxRate: '5%' },
    ];
    // 199 of 200 from the balance: one unit is left, on one line; the other was paid whole by the balance.
    expect(cartAfterCredit(two, 199)).toEqual([{ product: 'Setup fee, 99 from credit balance', price: 1, quantity: 1, taxRate: '5%' }]);
    // A unit that would empty one line goes to a line that keeps some instead.
    const uneven: CartLine[] = [
      { product: 'A', price: 1, quantity: 1 },
      { product: 'B', price: 999, quantity: 1 },
    ];
    expect(cartAfterCredit(uneven, 500)).toEqual([
      { product: 'A', price: 1, quantity: 1 },
      { product: 'B, 500 from credit balance', price: 499, quantity: 1 },
    ]);
    expect(() => cartAfterCredit(two, 200)).toThrow(RangeError);
  });

  it("multiplies a plan's lines by the seats, and sends the rate as the provider's taxMode", () => {
    expect(planCart([{ product: 'Seat', price: 900, quantity: 3, taxRate: '22%' }, { product: 'Support', price: 100, quantity: 1 }], 2)).toEqual([
      { product: 'Seat', price: 900, quantity: 6, taxRate: '22%' },
      { product: 'Support', price: 100, quantity: 2 },
    ]);
    expect(toInvoiceLines([{ product: 'Seat', price: 900, quantity: 6, taxRate: '22%' }, { product: 'Support', price: 100, quantity: 2 }])).toEqual([
      { product: 'Seat', price: 900, quantity: 6, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
      { product: 'Support', price: 100, quantity: 2 },
    ]);
  });

  it('cuts a long product at a whole character so the credit note stays whole', () => {
    const long = '😀'.repeat(600);
    const text = labelled(long, ', 5 from credit balance');
    expect(text.length).toBeLessThanOrEqual(MAX_LINE_PRODUCT_LENGTH);
    expect(text.endsWith('…, 5 from credit balance')).toBe(true);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
