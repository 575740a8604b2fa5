import type { Refund, RefundDestination, RefundReason, RefundStatus } from './refund.entity';

export interface RefundResponse {
  id: string;
  chargeId: string;
  customerId: string;
  number: number;
  amount: number;
  currency: string;
  to: RefundDestination;
  status: RefundStatus;
  reason: RefundReason | null;
  reference: string | null;
  providerRefundId: string | null;
  failureCode: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A refund as the admin API and the refund.* events show it. */
export function toRefundResponse(refund: Refund): RefundResponse {
  return {
    id: refund.id,
    chargeId: refund.chargeId,
    customerId: refund.customerId,
    number: refund.number,
    amount: refund.amount,
    currency: refund.currency,
    to: refund.destination,
    status: refund.status,
    reason: refund.reason,
    reference: refund.reference,
    providerRefundId: refund.providerRefundId,
    failureCode: refund.failureCode,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
    completedAt: refund.completedAt === null ? null : refund.completedAt.toISOString(),
  };
}
