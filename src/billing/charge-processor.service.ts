import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { Customer } from '../customers/customer.entity';
import { failureCodePath } from '../gateway/failure-code';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { Payment } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning } from './billing-tuning';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeQueueService, ClaimedCharge } from './charge-queue.service';
import { classifyDecline, dunningDeadline, nextRetryAt, respectAttemptCap } from './dunning-policy';
import { LeaseLostError } from '../common/lease-lost.error';
import { backoffDelayMs } from '../work/backoff';
import { WorkTuning } from '../work/work-tuning';

interface ChargeContext {
  plan: Plan;
  customer: Customer;
  subscription: Subscription;
}

/** A payment attempt the provider definitely refused, recorded together with the charge's next state. */
interface DeclinedAttempt {
  id: string;
  errorCode: string;
}

function recordDecline(em: EntityManager, declined: DeclinedAttempt): Promise<unknown> {
  return em.update(ChargeAttempt, { id: declined.id }, { status: 'declined', errorCode: declined.errorCode });
}

/** What one step of a charge ended with, for the pass summary. */
export type ChargeOutcome = 'succeeded' | 'declined' | 'unknown' | 'pending' | 'failed' | 'skipped';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hex = (uuid: string) => uuid.replace(/-/g, '');

export function invoiceExternalId(chargeId: string): string {
  return `inv${hex(chargeId)}`;
}

export function paymentExternalId(chargeId: string, attempt: number): string {
  return `pay${hex(chargeId)}${attempt}`;
}

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
  private readonly contexts = new WeakMap<ClaimedCharge, Promise<ChargeContext>>();
  /** The attempt just created in this claim, so awaiting it needs no read. */
  private readonly openAttempts = new WeakMap<ClaimedCharge, ChargeAttempt>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: ChargeQueueService,
    private readonly gateway: ProcessingGateway,
    private readonly plans: PlansService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly clock: Clock,
    private readonly tuning: BillingTuning,
    private readonly work: WorkTuning,
    private readonly metrics: BillingMetricsService,
  ) {}

  async process(claim: ClaimedCharge): Promise<ChargeOutcome> {
    const charge = claim.charge;
    try {
      if (charge.step === 'awaiting_card') return await this.applyFinalAction(claim, charge.lastErrorCode ?? 'hard_decline');
      let invoiceJustCreated = false;
      if (charge.step === 'create_invoice') {
        await this.createInvoice(claim);
        invoiceJustCreated = true;
      }
      if (charge.step === 'create_payment') {
        const outcome = await this.createPayment(claim, invoiceJustCreated);
        if (outcome) return outcome;
      }
      if (charge.step === 'await_payment') return await this.awaitPayment(claim);
      await this.queue.release(claim, { nextAttemptAt: null });
      return 'skipped';
    } catch (error) {
      return this.handleError(claim, error);
    } finally {
      if (!['create_payment', 'await_payment'].includes(charge.step)) this.tokens.delete(charge.id);
    }
  }

  private async createInvoice(claim: ClaimedCharge): Promise<void> {
    const charge = claim.charge;
    const { plan } = await this.context(claim);
    if (!charge.invoiceDueAt) {
      // Past the whole ladder plus a margin; written with the intent, since the provider compares it on a replay
      // and the plan's ladder may be edited in between.
      const ladderMs = this.plans.effectiveDunning(plan).retryDelaysMs.reduce((a, b) => a + b, 0);
      const base = Math.max(charge.periodStart.getTime(), charge.createdAt.getTime());
      await this.queue.write(claim, { invoiceDueAt: new Date(base + ladderMs + 30 * 86_400_000) });
    }
    const result = await this.gateway.createInvoice({
      shopID: plan.shopId,
      dueDate: (charge.invoiceDueAt as Date).toISOString(),
      amount: charge.amount,
      currency: charge.currency,
      product: plan.product,
      ...(plan.description ? { description: plan.description } : {}),
      cart: plan.lines.map((line) => ({
        product: line.product,
        price: line.price,
        quantity: line.quantity,
        ...(line.taxRate ? { taxMode: { type: 'InvoiceLineTaxVAT' as const, rate: line.taxRate } } : {}),
      })),
      metadata: { subscriptionId: charge.subscriptionId, chargeId: charge.id, periodStart: charge.periodStart.toISOString() },
      externalID: charge.invoiceExternalId,
    });
    this.tokens.set(charge.id, result.invoiceAccessToken.payload);
    await this.queue.write(claim, { providerInvoiceId: result.invoice.id, step: 'create_payment', status: 'processing', technicalFailures: 0 });
  }

  /** Returns an outcome when the charge is left for later; undefined to go on awaiting the payment. */
  private async createPayment(claim: ClaimedCharge, invoiceJustCreated: boolean): Promise<ChargeOutcome | undefined> {
    const charge = claim.charge;
    const now = this.clock.now();
    // An invoice made a moment ago in this claim has no payment attempts yet: no need to read them.
    const attempts = invoiceJustCreated
      ? []
      : await this.dataSource.getRepository(ChargeAttempt).find({ where: { chargeId: charge.id }, order: { number: 'ASC' } });
    let attempt = attempts.find((a) => a.status === 'pending' || a.status === 'unknown' || a.status === 'processing');
    if (!attempt) {
      const allowedAt = respectAttemptCap(attempts.map((a) => a.attemptedAt), now);
      if (allowedAt > now) {
        await this.queue.release(claim, { nextAttemptAt: allowedAt, status: 'retrying' });
        return 'pending';
      }
      const number = attempts.length + 1;
      // The intent, written before the call (and only while this worker holds the charge), so a crash
      // leaves a replayable externalID behind.
      const externalId = paymentExternalId(charge.id, number);
      const inserted: { id: string }[] = await this.dataSource.query(
        `INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at)
         SELECT $1, $2, $3, 'pending', $4 WHERE EXISTS (SELECT 1 FROM charges WHERE id = $1 AND fence = $5)
         RETURNING id`,
        [charge.id, number, externalId, now, claim.fence],
      );
      const insertedId = inserted[0]?.id;
      if (!insertedId) throw new LeaseLostError('charge', charge.id);
      attempt = Object.assign(new ChargeAttempt(), { id: insertedId, chargeId: charge.id, number, externalId, status: 'pending' as const, attemptedAt: now, providerPaymentId: null, errorCode: null });
      if (number > 1) this.metrics.dunningAttempts.inc({ result: 'started' });
    }
    if (attempt.status === 'processing' && attempt.providerPaymentId) {
      await this.queue.write(claim, { step: 'await_payment', status: 'processing' });
      return undefined;
    }

    const { customer } = await this.context(claim);
    let payment: Payment;
    try {
      payment = await this.payWithToken(claim, customer, attempt);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'unknown_outcome') {
        // Only from pending: a worker that lost its lease must not overwrite an outcome already recorded.
        await this.dataSource.getRepository(ChargeAttempt).update({ id: attempt.id, status: 'pending' }, { status: 'unknown' });
      }
      if (error instanceof ProviderError && error.kind === 'invalid_request') {
        return this.handlePaymentRefused(claim, attempt, error);
      }
      throw error;
    }
    // TypeORM answers an UPDATE with [rows, affected].
    const [recorded]: [unknown[], number] = await this.dataSource.query(
      `WITH c AS (UPDATE charges SET step = 'await_payment', status = 'processing', technical_failures = 0, updated_at = now()
                   WHERE id = $1 AND fence = $2 RETURNING id)
       UPDATE charge_attempts SET provider_payment_id = $3, status = 'processing', updated_at = now()
        WHERE id = $4 AND EXISTS (SELECT 1 FROM c) RETURNING id`,
      [charge.id, claim.fence, payment.id, attempt.id],
    );
    if (recorded.length === 0) throw new LeaseLostError('charge', charge.id);
    Object.assign(charge, { step: 'await_payment', status: 'processing', technicalFailures: 0 });
    attempt.providerPaymentId = payment.id;
    attempt.status = 'processing';
    this.openAttempts.set(claim, attempt);
    return undefined;
  }

  private async payWithToken(claim: ClaimedCharge, customer: Customer, attempt: ChargeAttempt): Promise<Payment> {
    const charge = claim.charge;
    const invoiceId = charge.providerInvoiceId as string;
    const params = {
      flow: { type: 'PaymentFlowInstant' as const },
      payer: { payerType: 'CustomerPayer' as const, customerID: customer.providerCustomerId },
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
    const charge = claim.charge;
    if (error.code === 'invalidInvoiceStatus') {
      const invoice = await this.gateway.getInvoice(charge.providerInvoiceId as string);
      if (invoice.status === 'paid' || invoice.status === 'fulfilled') {
        // An earlier payment of ours captured it: the charge is done.
        return this.succeed(claim, attempt.id);
      }
      return this.fail(claim, `invoice_${invoice.status}`, attempt);
    }
    if (error.code === 'invoicePaymentPending') {
      // Another payment is still pending on this invoice; wait for it instead of adding one.
      return this.backOff(claim, error);
    }
    const code = /not ready/i.test(error.providerMessage ?? '') ? 'customer_not_ready' : `payment_refused:${error.code ?? 'invalidRequest'}`;
    return this.decline(claim, code, attempt);
  }

  private async awaitPayment(claim: ClaimedCharge): Promise<ChargeOutcome> {
    const charge = claim.charge;
    const attempt =
      this.openAttempts.get(claim) ??
      // The newest attempt the provider has a payment for, whatever its recorded status: a worker may have died
      // between learning the outcome and recording it on the charge.
      (await this.dataSource
        .getRepository(ChargeAttempt)
        .findOneOrFail({ where: { chargeId: charge.id, providerPaymentId: Not(IsNull()) }, order: { number: 'DESC' } }));
    const deadline = Date.now() + this.tuning.paymentPollMs;
    // Instant payments usually settle within milliseconds: a short first wait saves a read.
    let delay = 5;
    await sleep(delay);
    for (;;) {
      const payment = await this.gateway.getPayment(charge.providerInvoiceId as string, attempt.providerPaymentId as string);
      if (payment.status === 'captured' || payment.status === 'refunded') {
        return this.succeed(claim, attempt.id);
      }
      if (payment.status === 'failed' || payment.status === 'cancelled') {
        const code = payment.status === 'failed' ? failureCodePath(payment.error) : 'payment_cancelled';
        return this.decline(claim, code, attempt);
      }
      if (Date.now() + delay > deadline) break;
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
    // Still pending: let the next pass look again soon (real time), without holding the lease.
    await this.queue.release(claim, { nextAttemptAt: this.clock.now(), notBefore: () => "now() + interval '2 seconds'" });
    return 'pending';
  }

  private async succeed(claim: ClaimedCharge, attemptId: string): Promise<ChargeOutcome> {
    const charge = claim.charge;
    const now = this.clock.now();
    const { plan, subscription } = await this.context(claim);
    const event = { chargeId: charge.id, amount: charge.amount, currency: charge.currency };
    if (subscription.status === 'active') {
      // The common case in one round trip: settle the charge and the attempt and append the audit event,
      // all only while this worker still holds the charge.
      const rows: unknown[] = await this.dataSource.query(
        `WITH c AS (UPDATE charges SET status = 'succeeded', step = 'done', next_attempt_at = NULL, not_before = NULL,
                           attempt_count = $3, last_error_code = NULL, lease_owner = NULL, updated_at = now()
                     WHERE id = $1 AND fence = $2 RETURNING subscription_id),
              a AS (UPDATE charge_attempts SET status = 'succeeded', updated_at = now() WHERE id = $4 AND EXISTS (SELECT 1 FROM c))
         ${this.lifecycle.chargeSucceededEventSql('c', '$5', '$6')} RETURNING id`,
        [charge.id, claim.fence, charge.attemptCount + 1, attemptId, JSON.stringify(event), now],
      );
      if (rows.length === 0) {
        this.queue.leaseLost();
        throw new LeaseLostError('charge', charge.id);
      }
      Object.assign(charge, { status: 'succeeded', step: 'done', nextAttemptAt: null, attemptCount: charge.attemptCount + 1 });
      return this.succeeded(charge);
    }
    await this.dataSource.transaction(async (em) => {
      await this.queue.release(
        claim,
        { status: 'succeeded', step: 'done', nextAttemptAt: null, notBefore: null, attemptCount: charge.attemptCount + 1, lastErrorCode: null },
        em,
      );
      await em.update(ChargeAttempt, { id: attemptId }, { status: 'succeeded' });
      await this.lifecycle.chargeSucceeded(em, charge.subscriptionId, plan, event, now);
    });
    return this.succeeded(charge);
  }

  private succeeded(charge: Charge): ChargeOutcome {
    this.tokens.delete(charge.id);
    this.metrics.charges.inc({ outcome: 'succeeded' });
    if (charge.attemptCount > 1) this.metrics.dunningAttempts.inc({ result: 'recovered' });
    return 'succeeded';
  }

  /** A definite decline: the ladder decides between a retry, waiting for a new card and the final action. */
  private async decline(claim: ClaimedCharge, code: string, attempt: ChargeAttempt): Promise<ChargeOutcome> {
    const attemptedAt = attempt.attemptedAt;
    const charge = claim.charge;
    const now = this.clock.now();
    const { plan, customer } = await this.context(claim);
    const dunning = this.plans.effectiveDunning(plan);
    // This attempt counts as declined whether or not an earlier worker already recorded it.
    const declines =
      (await this.dataSource.getRepository(ChargeAttempt).countBy({ chargeId: charge.id, status: 'declined', id: Not(attempt.id) })) + 1;
    const declined = { id: attempt.id, errorCode: code };
    const dunningStartedAt = charge.dunningStartedAt ?? attemptedAt;
    const kind = classifyDecline(code);
    this.metrics.charges.inc({ outcome: kind === 'hard' ? 'declined_hard' : 'declined_soft' });

    if (kind === 'soft') {
      const retryAt = nextRetryAt(dunning.retryDelaysMs, declines, attemptedAt);
      if (!retryAt) return this.exhaust(claim, code, dunning.finalAction, declined);
      await this.markPastDue(claim, code, now, declined, {
        status: 'retrying',
        step: 'create_payment',
        nextAttemptAt: retryAt,
        dunningStartedAt,
        declinedBindingId: null,
      });
      return 'declined';
    }
    // Hard: the same card will not pay; wait for a new one until the ladder's window ends.
    await this.markPastDue(claim, code, now, declined, {
      status: 'failed',
      step: 'awaiting_card',
      nextAttemptAt: dunningDeadline(dunning.retryDelaysMs, dunningStartedAt),
      dunningStartedAt,
      declinedBindingId: customer.activeBindingId,
    });
    return 'declined';
  }

  private async markPastDue(
    claim: ClaimedCharge,
    code: string,
    now: Date,
    declined: DeclinedAttempt,
    changes: Parameters<ChargeQueueService['release']>[1],
  ): Promise<void> {
    const charge = claim.charge;
    await this.dataSource.transaction(async (em) => {
      await this.queue.release(claim, { ...changes, attemptCount: charge.attemptCount + 1, lastErrorCode: code, notBefore: null }, em);
      await recordDecline(em, declined);
      await this.lifecycle.chargeDeclined(
        em,
        charge.subscriptionId,
        {
          chargeId: charge.id,
          errorCode: code,
          nextAttemptAt: changes.nextAttemptAt instanceof Date ? changes.nextAttemptAt.toISOString() : null,
          waitsForNewCard: changes.step === 'awaiting_card',
        },
        now,
      );
    });
  }

  /** The ladder is over: the charge fails and the final action (cancel or unpaid) applies to the subscription. */
  private async exhaust(claim: ClaimedCharge, code: string, finalAction: 'cancel' | 'unpaid', declined?: DeclinedAttempt): Promise<ChargeOutcome> {
    const charge = claim.charge;
    const now = this.clock.now();
    await this.dataSource.transaction(async (em) => {
      await this.queue.release(
        claim,
        { status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null, attemptCount: charge.attemptCount + (declined ? 1 : 0), lastErrorCode: code },
        em,
      );
      if (declined) await recordDecline(em, declined);
      await this.lifecycle.dunningExhausted(em, charge.subscriptionId, { chargeId: charge.id, errorCode: code, finalAction }, now);
    });
    this.metrics.charges.inc({ outcome: 'failed' });
    this.tokens.delete(charge.id);
    return 'failed';
  }

  private applyFinalAction(claim: ClaimedCharge, code: string): Promise<ChargeOutcome> {
    return this.context(claim).then(({ plan }) => this.exhaust(claim, code, this.plans.effectiveDunning(plan).finalAction));
  }

  /**
   * The provider refused the charge itself (not the card): an operator must look. The charge stops and
   * can be retried by hand; the subscription keeps its status, since the payer did nothing wrong.
   */
  private async fail(claim: ClaimedCharge, code: string, attempt?: ChargeAttempt): Promise<ChargeOutcome> {
    const charge = claim.charge;
    const now = this.clock.now();
    await this.dataSource.transaction(async (em) => {
      await this.queue.release(claim, { status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null, lastErrorCode: code }, em);
      if (attempt) await recordDecline(em, { id: attempt.id, errorCode: code });
      await this.lifecycle.chargeNeedsOperator(em, charge.subscriptionId, { chargeId: charge.id, errorCode: code }, now);
    });
    this.metrics.charges.inc({ outcome: 'failed' });
    this.tokens.delete(charge.id);
    return 'failed';
  }

  private async backOff(claim: ClaimedCharge, error: unknown): Promise<ChargeOutcome> {
    const charge = claim.charge;
    const failures = charge.technicalFailures + 1;
    const delayMs = backoffDelayMs(failures, this.work.backoffMs, this.work.maxBackoffMs);
    const code = error instanceof ProviderError ? `${error.kind}${error.code ? `:${error.code}` : ''}` : 'internal_error';
    await this.queue.release(claim, {
      technicalFailures: failures,
      nextAttemptAt: charge.nextAttemptAt ?? this.clock.now(),
      notBefore: () => `now() + make_interval(secs => ${delayMs / 1000})`,
      lastErrorCode: code,
    });
    this.metrics.charges.inc({ outcome: 'technical_retry' });
    return 'unknown';
  }

  private async handleError(claim: ClaimedCharge, error: unknown): Promise<ChargeOutcome> {
    if (error instanceof LeaseLostError) {
      this.logger.warn({ chargeId: claim.charge.id }, 'Lease lost; another worker continues this charge');
      return 'skipped';
    }
    if (error instanceof ProviderError && ['invalid_request', 'conflict', 'not_found'].includes(error.kind) && claim.charge.step === 'create_invoice') {
      // The provider refuses the invoice itself: retrying will not help; an operator must look.
      this.logger.error({ chargeId: claim.charge.id, err: error }, 'The provider refused the invoice of this charge');
      return this.fail(claim, `invoice_refused:${error.code ?? error.kind}`);
    }
    this.logger.warn({ chargeId: claim.charge.id, step: claim.charge.step, err: error }, 'Charge step failed; will retry with the same externalID');
    try {
      return await this.backOff(claim, error);
    } catch (releaseError) {
      if (!(releaseError instanceof LeaseLostError)) this.logger.error({ chargeId: claim.charge.id, err: releaseError }, 'Could not release the charge');
      return 'skipped';
    }
  }

  /** Subscription, plan and customer of the charge, read once per claim (outside any transaction). */
  private context(claim: ClaimedCharge): Promise<ChargeContext> {
    let context = this.contexts.get(claim);
    if (!context) {
      context = this.dataSource
        .getRepository(Subscription)
        .findOneByOrFail({ id: claim.charge.subscriptionId })
        .then(async (subscription) => {
          const [plan, customer] = await Promise.all([
            this.plans.get(subscription.planId),
            this.dataSource.getRepository(Customer).findOneByOrFail({ id: claim.charge.customerId }),
          ]);
          return { plan, customer, subscription };
        });
      this.contexts.set(claim, context);
    }
    return context;
  }
}
