import type { TaxRate } from '../plans/plan.entity';
import type { PendingItem, PendingItemSource, PendingItemStatus } from './pending-item.entity';

export interface PendingItemResponse {
  id: string;
  subscriptionId: string;
  customerId: string;
  source: PendingItemSource;
  lines: { product: string; price: number; quantity: number; taxRate?: TaxRate }[];
  amount: number;
  currency: string;
  description: string | null;
  reference: string | null;
  status: PendingItemStatus;
  chargeId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The admin API's view of a pending item: a plain object with ISO timestamps, never the entity. */
export function toPendingItemResponse(item: PendingItem): PendingItemResponse {
  return {
    id: item.id,
    subscriptionId: item.subscriptionId,
    customerId: item.customerId,
    source: item.source,
    lines: item.lines.map((line) => ({ product: line.product, price: line.price, quantity: line.quantity, ...(line.taxRate !== undefined ? { taxRate: line.taxRate } : {}) })),
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    reference: item.reference,
    status: item.status,
    chargeId: item.chargeId,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
  };
}
