import fc from 'fast-check';
import type { InvoiceLine } from '../gateway/provider-api.types';
import { remainingCart } from './refund-cart';

const VAT = (rate: string) => ({ type: 'InvoiceLineTaxVAT' as const, rate });
const total = (cart: InvoiceLine[]) => cart.reduce((sum, line) => sum + line.price * line.quantity, 0);

describe('the cart that stays paid after a refund', () => {
  const cart: InvoiceLine[] = [
    { product: 'Seat', price: 1000, quantity: 2, taxMode: VAT('22%') },
    { product: 'Support', price: 500, quantity: 1 },
  ];

  it('shrinks every line in proportion, keeping products, tax rates and, where it divides, quantities', () => {
    expect(remainingCart(cart, 2000)).toEqual([
      { product: 'Seat', price: 800, quantity: 2, taxMode: VAT('22%') },
      { product: 'Support', price: 400, quantity: 1 },
    ]);
    // 1001 × 2000/2500 = 800.8 and 1001 × 500/2500 = 200.2: the odd unit goes to the larger remainder.
    expect(remainingCart(cart, 1001)).toEqual([
      { product: 'Seat', price: 801, quantity: 1, taxMode: VAT('22%') },
      { product: 'Support', price: 200, quantity: 1 },
    ]);
    expect(remainingCart(cart, 1)).toEqual([{ product: 'Seat', price: 1, quantity: 1, taxMode: VAT('22%') }]);
  });

  it('is none when nothing stays paid or the invoice had no cart', () => {
    expect(remainingCart(cart, 0)).toBeNull();
    expect(remainingCart(undefined, 100)).toBeNull();
    expect(remainingCart([], 100)).toBeNull();
  });

  it('always totals exactly what remains, with no line below 1 and no more lines than the invoice', () => {
    const line = fc.record({
      product: fc.string({ minLength: 1, maxLength: 5 }),
      price: fc.integer({ min: 1, max: 10_000_000 }),
      quantity: fc.integer({ min: 1, max: 1_000 }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 100 }), fc.double({ min: 0, max: 1, noNaN: true }), (lines, fraction) => {
        const remaining = Math.floor(total(lines) * fraction);
        const result = remainingCart(lines, remaining);
        if (remaining === 0) return expect(result).toBeNull();
        expect(result).not.toBeNull();
        expect(total(result as InvoiceLine[])).toBe(remaining);
        expect((result as InvoiceLine[]).every((l) => l.price >= 1 && l.quantity >= 1)).toBe(true);
        expect((result as InvoiceLine[]).length).toBeLessThanOrEqual(lines.length);
      }),
      { numRuns: 300 },
    );
  });
});
