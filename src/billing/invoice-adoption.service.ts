import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { failureCodePath } from '../gateway/failure-code';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { Invoice, Payment } from '../gateway/provider-api.types';
import { BillingMetricsService } from './billing-metrics.service';
import { ChargeAttempt } from './charge-attempt.entity';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import { ChargeOutcome, ChargeSettlementService } from './charge-settlement.service';
import type { AdoptedAttempt } from './charge-writes';
import { ChargesRepository } from './charges.repository';
import { attemptOfPaymentExternalId } from './external-ids';

/** Payment states after which the provider makes no more attempts on its own. */
const FAILED: ReadonlySet<Payment['status']> = new Set(['failed', 'cancelled']);

/**
 * A charge whose period's invoice the provider already holds, made by an earlier charge row (the database was
 * restored to a point before it) or already paid or closed: the charge takes that invoice and every payment the
 * provider made on it as its own, and goes on from the newest one, so nothing is charged a second time.
 */
@Injectable()
export class InvoiceAdoptionService {
  private readonly logger = new Logger(InvoiceAdoptionService.name);

  constructor(
    private readonly gateway: ProcessingGateway,
    private readonly charges: ChargesRepository,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly settlement: ChargeSettlementService,
    private readonly clock: Clock,
    private readonly metrics: BillingMetricsService,
  ) {}

  /** Whether the invoice the provider answered needs reading back before this charge may pay it. */
  needsAdoption(claim: ClaimedCharge, invoice: Invoice): boolean {
    return invoice.metadata?.chargeId !== claim.row.id || invoice.status !== 'unpaid';
  }

  /**
   * Records the invoice and its payments on the charge. Answers the attempt to await (the newest payment, whose
   * outcome the caller reads and settles as usual), or an outcome when the charge ended here.
   */
  async adopt(claim: ClaimedCharge, invoice: Invoice): Promise<ChargeAttempt | ChargeOutcome | undefined> {
    const charge = claim.row;
    // The provider was asked for what the credit balance left of the charge.
    const owed = charge.amount - charge.paidFromBalance;
    if (invoice.currency !== charge.currency || invoice.amount !== owed) {
      return this.refuse(claim, invoice, 'amount_differs', `holds ${invoice.amount} ${invoice.currency}, the charge asks ${owed} ${charge.currency}`);
    }
    const payments = (await this.gateway.getPayments(invoice.id))
      .map((payment) => ({ payment, number: attemptOfPaymentExternalId(charge.invoiceExternalId, payment.externalID) }))
      .filter((p): p is { payment: Payment; number: number } => p.number !== undefined)
      .sort((a, b) => a.number - b.number);
    if (payments.length === 0 && invoice.status !== 'unpaid') {
      return this.refuse(claim, invoice, `invoice_${invoice.status}`, 'has no payment of this charge');
    }

    const now = this.clock.now();
    // Only the newest payment can still be open or captured (the provider allows one open payment, none after
    // the capture); the earlier ones are the declines that led to it.
    const attempts: AdoptedAttempt[] = payments.map(({ payment, number }, i) => {
      const newest = i === payments.length - 1;
      const declined = !newest && FAILED.has(payment.status);
      return {
        number,
        externalId: payment.externalID as string,
        providerPaymentId: payment.id,
        status: declined ? 'declined' : 'processing',
        errorCode: declined ? (payment.status === 'failed' ? failureCodePath(payment.error) : 'payment_cancelled') : null,
      };
    });
    const ids = await this.charges.adoptInvoice(charge.id, claim.fence, invoice.id, attempts, now);
    if (!ids) this.queue.lost(claim);
    this.metrics.adoptedInvoices.inc();
    this.logger.warn(
      { chargeId: charge.id, subscriptionId: charge.subscriptionId, providerInvoiceId: invoice.id, payments: payments.length, invoiceStatus: invoice.status },
      `Charge ${charge.id}: the provider already holds invoice ${invoice.id} for this period (made by an earlier charge, e.g. before a database restore); adopted with ${payments.length} payment(s)`,
    );
    const declines = attempts.filter((a) => a.status === 'declined').length;
    Object.assign(charge, { providerInvoiceId: invoice.id, status: 'processing', attemptCount: declines, technicalFailures: 0, updatedAt: now });
    if (declines > 0) charge.dunningStartedAt ??= now;
    const newest = attempts[attempts.length - 1];
    if (!newest) {
      charge.step = 'create_payment';
      return undefined;
    }
    charge.step = 'await_payment';
    return Object.assign(new ChargeAttempt(), {
      id: ids.get(newest.number) as string,
      chargeId: charge.id,
      number: newest.number,
      externalId: newest.externalId,
      providerPaymentId: newest.providerPaymentId,
      status: 'processing' as const,
      errorCode: null,
      // What the provider holds cannot say which payment an operator asked for: adopted attempts are the ladder's.
      manual: false,
      ladderPosition: null,
      attemptedAt: now,
    });
  }

  /** The earlier invoice cannot serve this charge: a person decides; a new invoice would risk a second charge. */
  private refuse(claim: ClaimedCharge, invoice: Invoice, reason: string, detail: string): Promise<ChargeOutcome> {
    this.logger.error(
      { chargeId: claim.row.id, providerInvoiceId: invoice.id, reason },
      `Charge ${claim.row.id}: the provider's invoice ${invoice.id} for this period ${detail}; the charge needs an operator`,
    );
    return this.settlement.fail(claim, `invoice_unusable:${reason}`);
  }
}
