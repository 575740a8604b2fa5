import type { InvoiceParams } from '../gateway/provider-api.types';
import type { Charge } from './charge.entity';
import type { AnyChargeContext } from './charge-context.service';
import { CartLine, cartAfterCredit, labelled, planCart, toInvoiceLines } from './invoice-cart';

/** The provider's limit on an invoice's `product`. */
const MAX_INVOICE_PRODUCT_LENGTH = 100;

/**
 * The charge's cart before the credit balance: the lines fixed with it (a one-off's, or a period's with its pending
 * items and setup fee), else a proration's one line (both plans, `d of D days`), else the plan's lines × the seats.
 */
export function cartOf(charge: Pick<Charge, 'lines' | 'description' | 'amount'>, context: Pick<AnyChargeContext, 'plan' | 'subscription'>): CartLine[] {
  if (charge.lines) return charge.lines;
  if (charge.description) return [{ product: charge.description, price: charge.amount, quantity: 1 }];
  if (!context.plan || !context.subscription) throw new Error('A charge without lines of its own needs its plan and subscription');
  return planCart(context.plan.lines, context.subscription.quantity);
}

/** A one-off's invoice `product`: its first line, and how many more there are. */
export function oneOffProduct(lines: readonly CartLine[]): string {
  return labelled(lines[0].product, lines.length > 1 ? ` and ${lines.length - 1} more` : '', MAX_INVOICE_PRODUCT_LENGTH);
}

/**
 * The invoice create for a charge, rebuilt from stored values alone so every replay sends the same request: the
 * provider is asked for what the credit balance left (its part taken off the lines, which keep their rates). A
 * subscription's charge invoices the plan's shop and product; a one-off the customer's shop, its own lines and
 * description.
 */
export function invoiceRequest(charge: Charge, context: AnyChargeContext): InvoiceParams {
  const cart = toInvoiceLines(cartAfterCredit(cartOf(charge, context), charge.paidFromBalance));
  const common = { dueDate: (charge.invoiceDueAt as Date).toISOString(), amount: charge.amount - charge.paidFromBalance, currency: charge.currency, cart, externalID: charge.invoiceExternalId };
  if (charge.kind === 'one_off') {
    return {
      ...common,
      shopID: context.payer.shopId,
      product: oneOffProduct(charge.lines ?? []),
      ...(charge.description ? { description: charge.description } : {}),
      metadata: { chargeId: charge.id, customerId: charge.customerId, kind: charge.kind, ...(charge.subscriptionId ? { subscriptionId: charge.subscriptionId } : {}) },
    };
  }
  const plan = context.plan;
  if (!plan) throw new Error(`Charge ${charge.id}: its plan is missing`);
  return {
    ...common,
    shopID: plan.shopId,
    product: plan.product,
    ...(plan.description ? { description: plan.description } : {}),
    metadata: { subscriptionId: charge.subscriptionId, chargeId: charge.id, periodStart: charge.periodStart.toISOString() },
  };
}
