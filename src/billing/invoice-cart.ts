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
  const totals = lines.map((line) => BigInt(line.price) * BigInt(line.quantity));
  const total = totals.reduce((a, b) => a + b, 0n);
  const applied = BigInt(credit);
  if (applied >= total) throw new RangeError(`A credit of ${credit} leaves nothing of a cart of ${total} to pay`);
  if (applied === 0n) return lines.map((line) => ({ ...line }));
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
