import type { ChargeKind } from './charge.entity';
import type { CartLine } from './invoice-cart';
import type { LadderPosition } from '../dunning/ladder-position';

/** One period's charge as billing materializes it. */
export interface NewCharge {
  id: string;
  subscriptionId: string;
  customerId: string;
  periodIndex: number;
  periodStart: Date;
  periodEnd: Date;
  amount: number;
  /** `period` for a billing period's charge, `proration` for a change's. */
  kind: ChargeKind;
  /** A proration charge's one cart line. */
  description?: string | null;
  /** The cart fixed with the charge: a period's plan lines with the pending items it carries (null: the plan's lines). */
  lines?: CartLine[] | null;
  /** What the subscription's coupon took off (its `lines` are then the discounted cart); 0 when none. */
  discountAmount?: number;
  currency: string;
  status: 'pending' | 'skipped';
  invoiceExternalId: string;
  /** The invoice's due date, part of the invoice intent (a replay must send the same body). */
  invoiceDueAt: Date | null;
  nextAttemptAt: Date | null;
}

/** One charge's invoice answer and first payment intent, as recordInvoice writes it. */
export interface InvoiceRecord {
  chargeId: string;
  fence: number;
  invoiceId: string;
  externalId: string;
  attemptedAt: Date;
}

/** One captured payment's settlement, as settleSucceeded writes it. */
export interface SucceededSettlement {
  chargeId: string;
  fence: number;
  attemptCount: number;
  attemptId: string;
  /** The provider's payment id when the claim has not recorded it yet; null keeps the one recorded. */
  paymentId: string | null;
  at: Date;
  /** The merchant event's id and data (charge.succeeded), and the subscription audit event's data. */
  eventId: string;
  eventData: Record<string, unknown>;
  auditData: Record<string, unknown>;
}

/** A payment the provider already made on an adopted invoice, recorded as one of the charge's attempts. */
export interface AdoptedAttempt {
  number: number;
  externalId: string;
  providerPaymentId: string;
  /** `declined` for an earlier, failed payment; `processing` for the newest, whose outcome is read next. */
  status: 'declined' | 'processing';
  errorCode: string | null;
}

/** A payment attempt's intent as written, manual when it carries out a manual retry. */
export interface OpenedAttempt {
  id: string;
  manual: boolean;
  ladderPosition: LadderPosition | null;
}
