import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import type { EventType } from '../events/event-types';
import { EventsService } from '../events/events.service';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { BillingMetricsService } from './billing-metrics.service';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import { toChargeResponse } from './charge-response';
import type { ChargeOutcome } from './charge-settlement.service';
import { ChargesRepository } from './charges.repository';
import { classifyDecline } from '../dunning/decline-codes';

/**
 * How a one-off charge's outcome is recorded. It is never dunned and never changes its subscription's status: paid,
 * it succeeds; declined (hard or soft) or refused by the provider, it ends `failed` with the code (an operator may
 * retry it by hand). Each outcome is one fenced write with the merchant events (charge.succeeded; charge.declined
 * and charge.failed) and, for a one-off of a subscription, a line in that subscription's audit trail.
 */
@Injectable()
export class OneOffSettlementService {
  constructor(
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly clock: Clock,
    private readonly metrics: BillingMetricsService,
    private readonly events: EventsService,
  ) {}

  /** Paid: by the attempt's captured payment, or (no attempt) by the credit balance whole, with no provider call. */
  async succeed(claim: ClaimedCharge, attempt?: ChargeAttempt): Promise<ChargeOutcome> {
    const charge = claim.row;
    const now = this.clock.now();
    await this.charges.transaction(async (em) => {
      const changes = { status: 'succeeded' as const, step: 'done' as const, nextAttemptAt: null, notBefore: null, technicalFailures: 0, lastErrorCode: null };
      await this.queue.write(claim, { ...changes, attemptCount: charge.attemptCount + (attempt ? 1 : 0) }, { release: true, em });
      if (attempt) await this.attempts.markFinal(em, { id: attempt.id, paymentId: attempt.providerPaymentId }, { status: 'succeeded' });
      await this.announce(em, charge.id, ['charge.succeeded']);
      if (charge.subscriptionId) {
        await this.lifecycle.chargeRecorded(em, charge.subscriptionId, 'charge_succeeded', { chargeId: charge.id, kind: 'one_off', amount: charge.amount, currency: charge.currency }, now);
      }
    });
    this.metrics.charges.inc({ outcome: 'succeeded' });
    return 'succeeded';
  }

  /**
   * Ends the charge `failed` with `code`: a decline of its payment (`declined`: charge.declined, then charge.failed), or
   * the provider refusing the charge itself (charge.failed; an operator looks).
   */
  async fail(claim: ClaimedCharge, code: string, attempt: ChargeAttempt | undefined, declined: boolean): Promise<ChargeOutcome> {
    const charge = claim.row;
    const now = this.clock.now();
    await this.charges.transaction(async (em) => {
      const attemptCount = charge.attemptCount + (declined && attempt ? 1 : 0);
      await this.queue.write(claim, { status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null, technicalFailures: 0, attemptCount, lastErrorCode: code }, { release: true, em });
      if (attempt) await this.attempts.markFinal(em, { id: attempt.id, paymentId: attempt.providerPaymentId }, { status: 'declined', errorCode: code });
      await this.announce(em, charge.id, declined ? ['charge.declined', 'charge.failed'] : ['charge.failed']);
      if (charge.subscriptionId) {
        await this.lifecycle.chargeRecorded(em, charge.subscriptionId, 'charge_failed', { chargeId: charge.id, kind: 'one_off', errorCode: code, needsOperator: !declined }, now);
      }
    });
    if (declined) this.metrics.charges.inc({ outcome: classifyDecline(code) === 'hard' ? 'declined_hard' : 'declined_soft' });
    this.metrics.charges.inc({ outcome: 'failed' });
    return 'failed';
  }

  /**
   * The customer has no card yet (a trial's setup fee at the subscription's start): no invoice is made, and the charge
   * waits, not due, until the customer is ready (OneOffChargesRepository.wakeWaitingForCustomer). Its due date is
   * fixed when its invoice is made.
   */
  async waitForCustomer(claim: ClaimedCharge): Promise<ChargeOutcome> {
    await this.queue.write(claim, { status: 'pending', step: 'await_customer', nextAttemptAt: null, invoiceDueAt: null, lastErrorCode: 'customer_not_ready' }, { release: true });
    return 'skipped';
  }

  /** An operator's retry the card networks' cap refuses: the charge stays as it was, failed. */
  async capReached(claim: ClaimedCharge): Promise<ChargeOutcome> {
    await this.queue.write(claim, { status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null }, { release: true });
    return 'skipped';
  }

  /** Records `types` for the charge as GET shows it now, read in the settling transaction. */
  private async announce(em: EntityManager, chargeId: string, types: EventType[]): Promise<void> {
    const charge = await this.charges.findById(chargeId, em);
    if (!charge) return;
    const object = toChargeResponse(charge, await this.attempts.ofCharge(chargeId, em));
    await this.events.record(
      em,
      types.map((type) => ({ type, data: { object } })),
    );
  }
}
