import type { LedgerRefund } from '../../support/sandbox-control';
import type { RefundResponse } from '../../../src/refunds/refund-response';

/** A payment as the sandbox's ledger shows it (the fields the check reads). */
interface PaymentView {
  invoiceID: string;
  paymentID: string;
  amount: number;
  status: string;
}

/** What the daemon's refunds came to at the provider: the figures the fault tests report, and what went wrong. */
export interface RefundReport {
  /** Card refunds the daemon accepted. */
  attempted: number;
  /** Refunds the provider made (succeeded). */
  made: number;
  /** Provider refunds beyond one per accepted refund: money given back twice. */
  double: number;
  /** Accepted refunds whose outcome the daemon and the provider disagree on, or that never ended. */
  lost: number;
  violations: string[];
}

/**
 * The exactly-once accounting of card refunds against the provider's ledger: every refund the daemon accepted has at
 * most one provider refund (its externalID's), and the daemon's final status is the provider's: succeeded exactly
 * when the provider's refund succeeded, with that refund's id. No provider refund exists that the daemon does not own,
 * and no payment gave back more than it captured. Pure, so it can be checked against hand-made ledgers too.
 */
export function checkRefunds(ledger: { payments: PaymentView[]; refunds: LedgerRefund[] }, refunds: RefundResponse[], externalIdOf: (refund: RefundResponse) => string): RefundReport {
  const violations: string[] = [];
  const card = refunds.filter((r) => r.to === 'card');
  const byExternalId = new Map<string, LedgerRefund[]>();
  for (const r of ledger.refunds) byExternalId.set(r.externalID ?? `none:${r.refundID}`, [...(byExternalId.get(r.externalID ?? `none:${r.refundID}`) ?? []), r]);
  const owned = new Set<string>();
  let double = 0;
  let lost = 0;
  for (const refund of card) {
    const externalId = externalIdOf(refund);
    owned.add(externalId);
    const atProvider = byExternalId.get(externalId) ?? [];
    const succeeded = atProvider.filter((r) => r.status === 'succeeded');
    if (succeeded.length > 1) {
      double += succeeded.length - 1;
      violations.push(`DOUBLE REFUND: refund ${refund.id} (${externalId}) was made ${succeeded.length} times at the provider`);
    }
    const provider = atProvider[0];
    if (refund.status === 'pending') {
      lost++;
      violations.push(`refund ${refund.id} is still pending after the drain (provider: ${provider?.status ?? 'none'})`);
    } else if (refund.status === 'succeeded' && (provider?.status !== 'succeeded' || provider.refundID !== refund.providerRefundId || provider.amount !== refund.amount)) {
      lost++;
      violations.push(`refund ${refund.id} is succeeded, the provider has ${provider ? `${provider.refundID} ${provider.status} ${provider.amount}` : 'none'}`);
    } else if (refund.status === 'failed' && provider?.status === 'succeeded') {
      lost++;
      violations.push(`LOST REFUND: refund ${refund.id} is failed (${refund.failureCode ?? '-'}) but the provider made ${provider.refundID} of ${provider.amount}`);
    }
  }
  for (const [externalId, made] of byExternalId) {
    if (owned.has(externalId)) continue;
    const succeeded = made.filter((r) => r.status === 'succeeded');
    double += succeeded.length;
    if (succeeded.length > 0) violations.push(`UNOWNED REFUND: the provider made ${externalId} (${succeeded.map((r) => r.amount).join(', ')}) and no refund of the daemon names it`);
  }
  for (const payment of ledger.payments) {
    const refunded = ledger.refunds.filter((r) => r.invoiceID === payment.invoiceID && r.paymentID === payment.paymentID && r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
    if (refunded > payment.amount) violations.push(`OVER-REFUNDED: payment ${payment.invoiceID}/${payment.paymentID} captured ${payment.amount} and gave back ${refunded}`);
  }
  const made = ledger.refunds.filter((r) => r.status === 'succeeded').length;
  return { attempted: card.length, made, double, lost, violations };
}
