import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { LeaseLostError } from '../work/lease-lost.error';
import { failureCodePath } from '../gateway/failure-code';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { Invoice, Payment } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { WebhookHealthService } from '../provider-webhooks/webhook-health.service';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning } from './billing-tuning';
import { AttemptTimingService } from './attempt-timing.service';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeContextService } from './charge-context.service';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import { ChargeOutcome, ChargeSettlementService } from './charge-settlement.service';
import { ChargesRepository } from './charges.repository';
import { InvoiceAdoptionService } from './invoice-adoption.service';
import { invoiceDueAt, invoiceMadeAt, paymentExternalId } from './external-ids';
import { invoiceRequest } from './invoice-request';
import { OneOffSettlementService } from './one-off-settlement.service';

/**
 * A payment left to its event is read anyway this long after (and again as long after each read that finds it open):
 * a charge whose event never comes settles within a few seconds of its capture, never more than 10.
 */
const WEBHOOK_SAFETY_NET_MS = 5_000;

/** A charge whose settling write is still under way (processAhead). */
export interface SettlingTail {
  tail: Promise<ChargeOutcome>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Moves one claimed charge through its steps: invoice → payment → outcome. The intent is written
 * before every provider call, no transaction is held across one, every create carries a stable
 * externalID, and an unknown outcome is replayed with the same externalID, never retried fresh.
 */
@Injectable()
export class ChargeProcessorService {
  private readonly logger = new Logger(ChargeProcessorService.name);
  /** Invoice access tokens live only in memory; after a restart a fresh one is minted. */
  private readonly tokens = new Map<string, string>();
  /** The attempt opened in this claim, so working it needs no read. */
  private readonly openAttempts = new WeakMap<ClaimedCharge, ChargeAttempt>();
  /**
   * Claims whose payment the provider created but whose payment id is not written yet: when the first read finds
   * the payment final, the outcome and the id are written together (one write instead of two). Until then a crash
   * leaves the attempt's intent, which is replayed with the same externalID.
   */
  private readonly unrecordedPayments = new WeakSet<ClaimedCharge>();

  constructor(
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly contexts: ChargeContextService,
    private readonly settlement: ChargeSettlementService,
    private readonly gateway: ProcessingGateway,
    private readonly clock: Clock,
    private readonly realClock: SystemClock,
    private readonly tuning: BillingTuning,
    private readonly metrics: BillingMetricsService,
    private readonly webhooks: WebhookHealthService,
    private readonly adoption: InvoiceAdoptionService,
    private readonly timing: AttemptTimingService,
    private readonly oneOffs: OneOffSettlementService,
  ) {}

  /** Reads what a claimed batch needs in one go, before its charges are worked. */
  prepare(batch: ClaimedCharge[]): Promise<void> {
    return this.contexts.prepare(batch);
  }

  /** Works the charge's due step to its end or its next wait; answers the outcome once it is recorded. */
  async process(claim: ClaimedCharge): Promise<ChargeOutcome> {
    const result = await this.step(claim, false);
    return typeof result === 'string' ? result : result.tail;
  }

  /**
   * Like process, but a captured payment's settling write (the charge's last step, no provider call after it) is
   * answered as a tail still under way, so the worker's provider slot goes on to its next charge at once.
   */
  processAhead(claim: ClaimedCharge): Promise<ChargeOutcome | SettlingTail> {
    return this.step(claim, true);
  }

  private async step(claim: ClaimedCharge, settleAhead: boolean): Promise<ChargeOutcome | SettlingTail> {
    const charge = claim.row;
    try {
      if (charge.step === 'awaiting_card') return await this.settlement.applyFinalAction(claim);
      // No payment is in flight unless the charge is `processing`: one of an ended subscription is dropped instead.
      if ((charge.step === 'create_invoice' || charge.step === 'create_payment') && charge.status !== 'processing' && (await this.subscriptionEnded(claim))) {
        await this.queue.write(claim, { status: 'canceled', step: 'done', nextAttemptAt: null, notBefore: null }, { release: true });
        return 'skipped';
      }
      // The credit balance paid it whole when it was made, or its coupon took it all: it succeeds with no provider call.
      if (charge.step === 'create_invoice' && (charge.amount > 0 ? charge.paidFromBalance >= charge.amount : charge.discountAmount > 0)) return await this.settlement.settleFromBalance(claim);
      if (charge.step === 'create_invoice') {
        // A one-off whose customer has no card yet (a trial's setup fee) waits for one, with no invoice made.
        if (charge.kind === 'one_off' && !(await this.contexts.any(claim)).payer.ready) return await this.oneOffs.waitForCustomer(claim);
        // A one-off is charged when it is asked for: the allowed hours are dunning's.
        const waiting = charge.kind === 'one_off' ? undefined : await this.timing.holdFirstAttempt(claim);
        if (waiting) return waiting;
        const outcome = await this.createInvoice(claim);
        if (outcome) return outcome;
      }
      if (charge.step === 'create_payment') {
        const outcome = await this.createPayment(claim);
        if (outcome) return outcome;
      }
      if (charge.step === 'await_payment') return await this.awaitPayment(claim, settleAhead);
      await this.queue.write(claim, { nextAttemptAt: null }, { release: true });
      return 'skipped';
    } catch (error) {
      return this.handleError(claim, error);
    } finally {
      if (!['create_payment', 'await_payment'].includes(charge.step)) this.tokens.delete(charge.id);
    }
  }

  private async subscriptionEnded(claim: ClaimedCharge): Promise<boolean> {
    return (await this.contexts.any(claim)).subscription?.status === 'canceled';
  }

  /** Returns an outcome when the charge ended here; undefined to go on to its payment. */
  private async createInvoice(claim: ClaimedCharge): Promise<ChargeOutcome | undefined> {
    const charge = claim.row;
    const context = await this.contexts.any(claim);
    // Charges made before the due date was part of their intent (and one-offs, whose invoice is made when their customer
    // can pay) get it now, before the first create; a one-off has no ladder to outlast.
    if (!charge.invoiceDueAt) {
      const ladder = charge.kind === 'one_off' || !context.dunning ? [] : [context.dunning.windowMs];
      const madeAt = invoiceMadeAt(charge.kind === 'one_off' ? this.clock.now() : charge.createdAt, this.realClock.now());
      await this.queue.write(claim, { invoiceDueAt: invoiceDueAt(charge.periodStart, madeAt, ladder) });
    }
    let invoice: Invoice;
    try {
      const result = await this.gateway.createInvoice(invoiceRequest(charge, context));
      invoice = result.invoice;
      this.tokens.set(charge.id, result.invoiceAccessToken.payload);
    } catch (error) {
      // The period's invoice exists with other features (an amount or cart changed, by a charge made again after a
      // restore): read it back and adopt it; never a new externalID for the same period.
      if (!(error instanceof ProviderError && error.kind === 'conflict')) throw error;
      this.metrics.invoiceConflicts.inc();
      invoice = await this.gateway.getInvoiceByExternalId(charge.invoiceExternalId);
    }
    if (this.adoption.needsAdoption(claim, invoice)) {
      const adopted = await this.adoption.adopt(claim, invoice);
      if (typeof adopted === 'string') return adopted;
      if (adopted) this.openAttempts.set(claim, adopted);
      return undefined;
    }
    // The invoice's answer and the first payment's intent in one write.
    const first = { externalId: paymentExternalId(charge.invoiceExternalId, 1), attemptedAt: this.clock.now() };
    const attemptId = await this.charges.recordInvoice(charge.id, claim.fence, invoice.id, first);
    if (attemptId === undefined) this.queue.lost(claim);
    Object.assign(charge, { providerInvoiceId: invoice.id, step: 'create_payment', status: 'processing', technicalFailures: 0, waitingFor: null, updatedAt: first.attemptedAt });
    if (attemptId) {
      this.openAttempts.set(
        claim,
        Object.assign(new ChargeAttempt(), {
          id: attemptId,
          chargeId: charge.id,
          number: 1,
          ...first,
          status: 'pending' as const,
          providerPaymentId: null,
          errorCode: null,
          manual: false,
          ladderPosition: null,
        }),
      );
    }
    return undefined;
  }

  /** Returns an outcome when the charge is left for later; undefined to go on awaiting the payment. */
  private async createPayment(claim: ClaimedCharge): Promise<ChargeOutcome | undefined> {
    const charge = claim.row;
    let attempt = this.openAttempts.get(claim);
    if (!attempt) {
      const now = this.clock.now();
      const attempts = await this.attempts.ofCharge(charge.id);
      attempt = attempts.find((a) => a.status === 'pending' || a.status === 'unknown' || a.status === 'processing');
      if (!attempt) {
        // A one-off's further attempts are an operator's retries: only the cap applies, and one it refuses leaves the charge as it was.
        if (charge.kind === 'one_off' && !this.timing.oneOffCapAllows(attempts, now)) return this.oneOffs.capReached(claim);
        const waiting = charge.kind === 'one_off' ? undefined : await this.timing.holdNextAttempt(claim, attempts);
        if (waiting) return waiting;
        // The intent, written before the call (and only while this worker holds the charge), so a crash
        // leaves a replayable externalID behind.
        const number = attempts.length + 1;
        const intent = { number, externalId: paymentExternalId(charge.invoiceExternalId, number), attemptedAt: now };
        const opened = await this.charges.openAttempt(charge.id, claim.fence, intent);
        if (!opened) this.queue.lost(claim);
        Object.assign(charge, { status: 'processing', pendingManualRetry: null, waitingFor: null, updatedAt: now });
        attempt = Object.assign(new ChargeAttempt(), { ...opened, chargeId: charge.id, ...intent, status: 'pending' as const, providerPaymentId: null, errorCode: null });
        if (number > 1) this.metrics.dunningAttempts.inc({ result: 'started' });
      }
    }
    if (attempt.status === 'processing' && attempt.providerPaymentId) {
      await this.queue.write(claim, { step: 'await_payment', status: 'processing' });
      return undefined;
    }

    let payment: Payment;
    try {
      payment = await this.payWithToken(claim, attempt);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'unknown_outcome') await this.attempts.markUnknown(attempt.id);
      if (error instanceof ProviderError && error.kind === 'invalid_request') return this.handlePaymentRefused(claim, attempt, error);
      // The provider holds a payment under this attempt's externalID with other features: what it did is not ours to
      // guess, and a new externalID could charge twice. A person looks.
      if (error instanceof ProviderError && error.kind === 'conflict') return this.settlement.fail(claim, 'payment_conflict');
      throw error;
    }
    charge.step = 'await_payment';
    attempt.providerPaymentId = payment.id;
    this.openAttempts.set(claim, attempt);
    this.unrecordedPayments.add(claim);
    return undefined;
  }

  /** Writes the payment id the provider gave this claim's attempt, if not written yet, and the charge's awaiting step. */
  private async recordPayment(claim: ClaimedCharge, attempt: ChargeAttempt): Promise<void> {
    if (!this.unrecordedPayments.delete(claim)) return;
    const charge = claim.row;
    const at = this.clock.now();
    if (!(await this.charges.recordPayment(charge.id, claim.fence, attempt.id, attempt.providerPaymentId as string, at))) this.queue.lost(claim);
    Object.assign(charge, { step: 'await_payment', status: 'processing', technicalFailures: 0, updatedAt: at });
    attempt.status = 'processing';
  }

  private async payWithToken(claim: ClaimedCharge, attempt: ChargeAttempt): Promise<Payment> {
    const charge = claim.row;
    const { payer } = await this.contexts.any(claim);
    const invoiceId = charge.providerInvoiceId as string;
    const params = {
      flow: { type: 'PaymentFlowInstant' as const },
      payer: { payerType: 'CustomerPayer' as const, customerID: payer.providerCustomerId },
      externalID: attempt.externalId,
      metadata: { chargeId: charge.id, attempt: attempt.number },
    };
    let token = this.tokens.get(charge.id);
    if (!token) {
      token = (await this.gateway.createInvoiceAccessToken(invoiceId)).payload;
      this.tokens.set(charge.id, token);
    }
    try {
      return await this.gateway.createPayment(invoiceId, token, params);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== 'unauthorized') throw error;
      // The invoice access token expired (it lives three days): renew it once and replay.
      token = (await this.gateway.createInvoiceAccessToken(invoiceId)).payload;
      this.tokens.set(charge.id, token);
      return this.gateway.createPayment(invoiceId, token, params);
    }
  }

  /** A 400 on payment creation: the provider refused to start it, so nothing was charged. */
  private async handlePaymentRefused(claim: ClaimedCharge, attempt: ChargeAttempt, error: ProviderError): Promise<ChargeOutcome> {
    const charge = claim.row;
    if (error.code === 'invalidInvoiceStatus') {
      const invoice = await this.gateway.getInvoice(charge.providerInvoiceId as string);
      // An earlier payment of ours captured it: the charge is done.
      if (invoice.status === 'paid' || invoice.status === 'fulfilled') return this.settlement.succeed(claim, attempt);
      return this.settlement.fail(claim, `invoice_${invoice.status}`, attempt);
    }
    // Another payment is still pending on this invoice; wait for it instead of adding one.
    if (error.code === 'invoicePaymentPending') return this.settlement.backOff(claim, error);
    const code = /not ready/i.test(error.providerMessage ?? '') ? 'customer_not_ready' : `payment_refused:${error.code ?? 'invalidRequest'}`;
    return this.settlement.decline(claim, code, attempt);
  }

  private async awaitPayment(claim: ClaimedCharge, settleAhead: boolean): Promise<ChargeOutcome | SettlingTail> {
    const charge = claim.row;
    // Without one from this claim: the newest attempt the provider has a payment for, whatever its recorded
    // status (a worker may have died between learning the outcome and recording it).
    const attempt = this.openAttempts.get(claim) ?? (await this.attempts.latestWithPayment(charge.id));
    // With the provider's payment webhook registered, a payment's event is expected from the first payment on: one
    // this claim just created is not read now, its event (or the safety net) makes the charge read it once.
    const eventsExpected = this.webhooks.expectsEvents('invoice');
    if (eventsExpected && this.unrecordedPayments.has(claim)) return this.waitForEvent(claim, attempt);
    const deadline = Date.now() + this.tuning.paymentPollMs;
    // Instant payments usually settle within milliseconds: a short first wait saves a read.
    let delay = 5;
    await sleep(delay);
    for (;;) {
      const payment = await this.gateway.getPayment(charge.providerInvoiceId as string, attempt.providerPaymentId as string);
      if (payment.status === 'captured' || payment.status === 'refunded') {
        if (!settleAhead) return this.settlement.succeed(claim, attempt);
        const tail = this.settlement
          .succeed(claim, attempt)
          .catch((error: unknown) => this.handleError(claim, error))
          .finally(() => this.tokens.delete(charge.id));
        return { tail };
      }
      if (payment.status === 'failed' || payment.status === 'cancelled') {
        return this.settlement.decline(claim, payment.status === 'failed' ? failureCodePath(payment.error) : 'payment_cancelled', attempt);
      }
      if (eventsExpected) return this.waitForEvent(claim, attempt);
      // Not final at once: the payment id is written now, so a crash from here on reads it back instead of replaying.
      await this.recordPayment(claim, attempt);
      if (Date.now() + delay > deadline) break;
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
    // Still pending: let the next pass look again soon (real time), without holding the lease.
    await this.queue.write(claim, { nextAttemptAt: this.clock.now() }, { release: true, notBeforeMs: 2_000 });
    return 'pending';
  }

  /**
   * Leaves the payment to its event: the payment id recorded, the lease released, and the charge due again after the
   * safety net, should the event never come (a topic that silently stopped): then it is read that late, and again.
   */
  private async waitForEvent(claim: ClaimedCharge, attempt: ChargeAttempt): Promise<ChargeOutcome> {
    await this.recordPayment(claim, attempt);
    await this.queue.write(claim, { nextAttemptAt: this.clock.now() }, { release: true, notBeforeMs: WEBHOOK_SAFETY_NET_MS });
    return 'pending';
  }

  private async handleError(claim: ClaimedCharge, error: unknown): Promise<ChargeOutcome> {
    // The engine's rule for a lost lease (LeasedQueue.lost): the step ends here, nothing more is written or called,
    // and it is no failure of the charge (its new holder goes on).
    if (error instanceof LeaseLostError) return 'skipped';
    if (error instanceof ProviderError && ['invalid_request', 'conflict', 'not_found'].includes(error.kind) && claim.row.step === 'create_invoice') {
      // The provider refuses the invoice itself: retrying will not help; an operator must look.
      this.logger.error({ chargeId: claim.row.id, err: error }, 'The provider refused the invoice of this charge');
      return this.settlement.fail(claim, `invoice_refused:${error.code ?? error.kind}`);
    }
    this.logger.warn({ chargeId: claim.row.id, step: claim.row.step, err: error }, 'Charge step failed; will retry with the same externalID');
    try {
      // A payment the provider made for us is worth keeping: the next try reads it instead of replaying the create.
      const attempt = this.openAttempts.get(claim);
      if (attempt) await this.recordPayment(claim, attempt).catch((e: unknown) => this.logger.warn({ chargeId: claim.row.id, err: e }, 'Could not record the payment id'));
      return await this.settlement.backOff(claim, error);
    } catch (releaseError) {
      if (!(releaseError instanceof LeaseLostError)) this.logger.error({ chargeId: claim.row.id, err: releaseError }, 'Could not release the charge');
      return 'skipped';
    }
  }
}
