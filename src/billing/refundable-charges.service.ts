import { Injectable } from '@nestjs/common';
import type { ChargeKind, ChargeStatus } from './charge.entity';
import { ChargesRepository } from './charges.repository';

/** What the refunds module needs of a charge: what was paid, and how. */
export interface RefundableCharge {
  id: string;
  customerId: string;
  kind: ChargeKind;
  status: ChargeStatus;
  amount: number;
  /** The part the credit balance paid: it goes back only to the balance. */
  paidFromBalance: number;
  currency: string;
  /** The invoice whose captured payment a card refund refunds (null for a charge the balance paid whole). */
  providerInvoiceId: string | null;
  /** Stable for the period (or change) the charge is for: refund identities derive from it. */
  invoiceExternalId: string;
}

/** How much of each charge was refunded; charges without a refund may be absent. */
export type RefundedAmountsReader = (chargeIds: string[]) => Promise<Map<string, number>>;

/**
 * Billing's side of refunds, which live in their own module and table: it reads a charge for them, and asks them how
 * much of each charge was refunded when it answers a charge (`amountRefunded`), so no other module writes `charges`
 * and billing does not depend on the refunds module.
 */
@Injectable()
export class RefundableChargesService {
  private refunded: RefundedAmountsReader = () => Promise.resolve(new Map());

  constructor(private readonly charges: ChargesRepository) {}

  async find(id: string): Promise<RefundableCharge | null> {
    const charge = await this.charges.findById(id);
    if (!charge) return null;
    const { customerId, kind, status, amount, paidFromBalance, currency, providerInvoiceId, invoiceExternalId } = charge;
    return { id, customerId, kind, status, amount, paidFromBalance, currency, providerInvoiceId, invoiceExternalId };
  }

  /** The refunds module answers amountRefunded with this (at its init, before any request). */
  answerRefundedWith(reader: RefundedAmountsReader): void {
    this.refunded = reader;
  }

  refundedAmounts(chargeIds: string[]): Promise<Map<string, number>> {
    return this.refunded(chargeIds);
  }
}
