import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A charge as the admin API and the charge.* events show it. `amountRefunded` comes from the refunds module (what its
 * succeeded refunds gave back); a charge's events are recorded before any refund of it can exist, so they show 0.
 */
export function toChargeResponse(charge: Charge, attempts: ChargeAttempt[], amountRefunded = 0) {
  // A one-off bills no period.
  const period = charge.kind !== 'one_off';
  return {
    id: charge.id,
    subscriptionId: charge.subscriptionId,
    customerId: charge.customerId,
    periodStart: period ? iso(charge.periodStart) : null,
    periodEnd: period ? iso(charge.periodEnd) : null,
    kind: charge.kind,
    description: charge.description,
    lines: charge.lines && charge.lines.map((line) => ({ product: line.product, price: line.price, quantity: line.quantity, ...(line.taxRate !== undefined ? { taxRate: line.taxRate } : {}) })),
    reference: charge.reference,
    amount: charge.amount,
    discountAmount: charge.discountAmount,
    paidFromBalance: charge.paidFromBalance,
    amountRefunded,
    currency: charge.currency,
    status: charge.status,
    invoiceId: charge.providerInvoiceId,
    // A charge that waits for a card or is settled has no retry scheduled.
    nextAttemptAt: charge.status === 'retrying' || charge.status === 'pending' ? iso(charge.nextAttemptAt) : null,
    // Why that attempt is not made sooner, when a dunning rule moved it (smart's allowed hours, the attempt cap).
    waitingFor: charge.status === 'retrying' || charge.status === 'pending' ? charge.waitingFor : null,
    waitingForNewCard: charge.step === 'awaiting_card' || charge.step === 'await_customer',
    lastErrorCode: charge.lastErrorCode,
    dunningStrategy: charge.dunningStrategy ?? null,
    recoveredBy: charge.recoveredBy ?? null,
    attempts: attempts
      .sort((a, b) => a.number - b.number)
      .map((a) => ({ number: a.number, paymentId: a.providerPaymentId, status: a.status, manual: a.manual, errorCode: a.errorCode, createdAt: iso(a.attemptedAt) })),
    createdAt: iso(charge.createdAt),
    updatedAt: iso(charge.updatedAt),
  };
}
