import type { InvoiceLine } from '../gateway/provider-api.types';
import type { PlanLine, TaxRate } from '../plans/plan.entity';

/** One cart line as a charge fixes it, before the credit balance: what the provider's InvoiceLine takes. */
export interface CartLine {
  product: string;
  price: number;
  quantity: number;
  taxRate?: TaxRate;
}

/** The provider's limits on a cart: lines per invoice, characters of a line's product. */
export const MAX_CART_LINES = 100;
export const MAX_LINE_PRODUCT_LENGTH = 1000;

/** A plan's lines for a subscription of `quantity` seats: every line's quantity multiplied by it. */
export function planCart(lines: readonly PlanLine[], quantity: number): CartLine[] {
  return lines.map((line) => ({ product: line.product, price: line.price, quantity: line.quantity * quantity, ...(line.taxRate ? { taxRate: line.taxRate } : {}) }));
}

/** Σ price × quantity, exact (the bounds on lines and charges keep it far below 2^53; BigInt checks it). */
export function cartTotal(lines: readonly CartLine[]): number {
  const total = lines.reduce((sum, line) => sum + BigInt(line.price) * BigInt(line.quantity), 0n);
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`A cart of ${total} minor units is past the safe integers`);
  return Number(total);
}

/**
 * The cart the card pays once `credit` of `lines`' total came from the customer's credit balance: the credit is spread
 * over the lines in proportion to their totals (largest remainder, to the minor unit), so the lines sum exactly to
 * the total less the credit and each keeps its own VAT rate. A line that took a share says so in its product
 * (`<product>, <share> from credit balance`: the receipt shows what the balance paid), and keeps its quantity when
 * its rest divides by it; otherwise it becomes one unit of `<product> × <quantity>` at the rest. A line the credit
 * covers whole is left out (the balance paid it, not the card); that happens only when the rest is smaller than the
 * number of lines, and the last minor units go first to lines that can take them and stay above zero. Never more
 * lines than given, never a line below 1, deterministic. `credit` must be below the total: a charge the balance
 * pays whole has no cart.
 */
export function cartAfterCredit(lines: readonly CartLine[], credit: number): CartLine[] {
  if (!Number.isSafeInteger(credit) || credit < 0) throw new RangeError(`No cart for a credit of ${credit}`);
  if (credit === 0) return lines.map((line) => ({ ...line }));
  const { totals, shares } = spread(lines, credit, 'credit');
  return lines.flatMap((line, i) => {
    const rest = totals[i] - shares[i];
    if (rest === 0n) return [];
    if (shares[i] === 0n) return [{ ...line }];
    const quantity = BigInt(line.quantity);
    const whole = rest % quantity === 0n;
    const name = whole ? line.product : `${line.product} × ${line.quantity}`;
    return [
      {
        product: labelled(name, `, ${shares[i]} from credit balance`),
        price: Number(whole ? rest / quantity : rest),
        quantity: whole ? line.quantity : 1,
        ...(line.taxRate ? { taxRate: line.taxRate } : {}),
      },
    ];
  });
}

/**
 * The cart of a period charge after its coupon's `discount`: the discount is spread over the lines in proportion to
 * their totals (largest remainder, to the minor unit, as the credit balance is), so the lines sum exactly to the
 * total less the discount and each keeps its VAT rate. A line that took a share says so (`<product>, <share>
 * discount`). Its rest keeps the line's quantity when it divides by it; otherwise the line is split in two of the
 * same rate (`q − r` units at ⌊rest / q⌋ and `r` units at one more, r = rest mod q), or, when the rest is below the
 * quantity or a split would pass MAX_CART_LINES, merged into one unit of `<product> × <quantity>` at the rest. A line
 * the discount covers whole is left out (only when the rest is smaller than the number of lines). Never a line below
 * 1, deterministic. `discount` must be below the total: a charge discounted whole has no cart (no provider call).
 */
export function cartAfterDiscount(lines: readonly CartLine[], discount: number): CartLine[] {
  if (!Number.isSafeInteger(discount) || discount < 0) throw new RangeError(`No cart for a discount of ${discount}`);
  if (discount === 0) return lines.map((line) => ({ ...line }));
  const { totals, shares } = spread(lines, discount, 'discount');
  let room = MAX_CART_LINES - lines.length;
  return lines.flatMap((line, i) => {
    const rest = totals[i] - shares[i];
    if (rest === 0n) return [];
    if (shares[i] === 0n) return [{ ...line }];
    const rate = line.taxRate ? { taxRate: line.taxRate } : {};
    const quantity = BigInt(line.quantity);
    const odd = rest % quantity;
    const product = labelled(line.product, `, ${shares[i]} discount`);
    if (odd === 0n) return [{ product, price: Number(rest / quantity), quantity: line.quantity, ...rate }];
    if (rest > quantity && room > 0) {
      room--;
      const price = rest / quantity;
      return [
        { product, price: Number(price), quantity: Number(quantity - odd), ...rate },
        { product, price: Number(price + 1n), quantity: Number(odd), ...rate },
      ];
    }
    return [{ product: labelled(`${line.product} × ${line.quantity}`, `, ${shares[i]} discount`), price: Number(rest), quantity: 1, ...rate }];
  });
}

/**
 * `amount` of the lines' total spread over them in proportion (largest remainder, ties to the earlier line): each
 * line's share, never its whole total while another line can take the unit. `amount` must be below the total.
 */
function spread(lines: readonly CartLine[], amount: number, what: string): { totals: bigint[]; shares: bigint[] } {
  const totals = lines.map((line) => BigInt(line.price) * BigInt(line.quantity));
  const total = totals.reduce((a, b) => a + b, 0n);
  const applied = BigInt(amount);
  if (applied >= total) throw new RangeError(`A ${what} of ${amount} leaves nothing of a cart of ${total} to pay`);
  const shares = totals.map((t) => (applied * t) / total);
  let left = applied - shares.reduce((a, b) => a + b, 0n);
  const byRemainder = totals.map((t, i) => ({ i, remainder: (applied * t) % total })).sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  // One more unit each, first to lines that keep at least one minor unit after it, then (only when the rest is that
  // small) to the others. Fewer units are left than lines, and no line's share reaches its total before its unit.
  const given = new Set<number>();
  for (const keepsSome of [true, false]) {
    for (const { i } of byRemainder) {
      if (left === 0n) break;
      if (given.has(i) || (keepsSome && shares[i] + 1n >= totals[i])) continue;
      shares[i] += 1n;
      given.add(i);
      left--;
    }
  }
  return { totals, shares };
}

/** `text` + `suffix` within `max` characters: the text is cut (at a whole character, marked …) so the suffix stays whole. */
export function labelled(text: string, suffix: string, max = MAX_LINE_PRODUCT_LENGTH): string {
  if (text.length + suffix.length <= max) return text + suffix;
  let cut = '';
  for (const character of text) {
    if (cut.length + character.length + suffix.length + 1 > max) break;
    cut += character;
  }
  return `${cut}…${suffix}`;
}

/** The cart as the provider's invoice takes it: the rate as `taxMode`, exactly as written. */
export function toInvoiceLines(lines: readonly CartLine[]): InvoiceLine[] {
  return lines.map((line) => ({
    product: line.product,
    price: line.price,
    quantity: line.quantity,
    ...(line.taxRate ? { taxMode: { type: 'InvoiceLineTaxVAT' as const, rate: line.taxRate } } : {}),
  }));
}
