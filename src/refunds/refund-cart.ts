import type { InvoiceLine } from '../gateway/provider-api.types';

/**
 * The cart that stays paid after a refund, as the provider wants it with a partial refund: its lines total `remaining`
 * (what the payment keeps), each line's share in proportion to its cost in the invoice's cart, to the minor unit by
 * largest remainder (ties to the earlier line), and each keeps its product and tax rate. A share that divides by the
 * line's quantity keeps the quantity; another becomes one unit at the share. A line whose share is 0 is left out.
 * Null when nothing stays paid (a cart cannot be empty: a refund of the whole remainder sends none) or the invoice had
 * no cart. Pure: the same invoice and figures give the same cart, which a replay must send again.
 */
export function remainingCart(invoiceCart: InvoiceLine[] | undefined, remaining: number): InvoiceLine[] | null {
  if (!invoiceCart || invoiceCart.length === 0 || remaining <= 0) return null;
  const costs = invoiceCart.map((line) => BigInt(line.price) * BigInt(line.quantity));
  const total = costs.reduce((sum, cost) => sum + cost, 0n);
  if (total <= 0n) return null;
  const target = BigInt(remaining);
  const shares = costs.map((cost) => (target * cost) / total);
  const remainders = costs.map((cost, index) => ({ index, remainder: (target * cost) % total }));
  let left = target - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index] += 1n;
    left -= 1n;
  }
  const lines: InvoiceLine[] = [];
  invoiceCart.forEach((line, index) => {
    const share = Number(shares[index]);
    if (share === 0) return;
    const keepsQuantity = share % line.quantity === 0;
    lines.push({
      product: line.product,
      quantity: keepsQuantity ? line.quantity : 1,
      price: keepsQuantity ? share / line.quantity : share,
      ...(line.taxMode ? { taxMode: { type: line.taxMode.type, rate: line.taxMode.rate } } : {}),
    });
  });
  return lines;
}
