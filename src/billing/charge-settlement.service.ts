import { Inject, Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import type { EventType } from '../events/event-types';
import { isoTextSql } from '../events/events.repository';
import { EventsService } from '../events/events.service';
import { GroupCommit } from '../database/group-commit';
import { ProviderError } from '../gateway/provider-error';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { backoffDelayMs } from '../work/backoff';
import { WorkTuning } from '../work/work-tuning';
import { BillingMetricsService } from './billing-metrics.service';
import { Charge, RecoveredBy } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeActionRequiredService } from './charge-action-required.service';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeContextService } from './charge-context.service';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import { toChargeResponse } from './charge-response';
import type { SucceededSettlement } from './charge-writes';
import { ChargesRepository } from './charges.repository';
import { classifyDecline } from '../dunning/decline-codes';
import { dunningGroup } from '../dunning/dunning-policy';
import { stateAfterManualDecline } from '../dunning/ladder-position';
import { OneOffSettlementService } from './one-off-settlement.service';

/**
 * What one step of a charge ended with, for the pass summary. `pending`: a payment is at the provider, its outcome
 * open; `waiting_…`: no provider call was made, the charge is due again later by a dunning rule (its `waitingFor`).
 */
export type ChargeOutcome = 'succeeded' | 'declined' | 'unknown' | 'pending' | 'waiting_allowed_hours' | 'waiting_attempt_cap' | 'failed' | 'skipped';

/** A payment attempt the provider definitely refused, recorded together with the charge's next state. */
interface DeclinedAttempt {
  id: string;
  paymentId: string | null;
  errorCode: string;
}

type ChargeChanges = QueryDeepPartialEntity<Charge>;

/**
 * How a charge's outcome is recorded: paid, declined (the dunning ladder decides what next), exhausted, refused
 * by the provider, or backed off after a technical failure. Each outcome is one fenced write, together with the
 * merchant events (charge.succeeded, charge.declined, charge.failed) and the subscription's change and audit event
 * in the same transaction; the lease is released in that write. A one-off's outcomes are OneOffSettlementService's: it
 * is not dunned and changes no subscription.
 */
@Injectable()
export class ChargeSettlementService {
  /** Captured payments settled by concurrent workers go as one statement and one commit (see GroupCommit). */
  private readonly settlements = new GroupCommit(
    (items: SucceededSettlement[]) =>
      this.charges.settleSucceeded(items, [
        this.lifecycle.chargeSucceededAuditRowsSql('c', { data: 'audit_data', at: 'at' }),
        this.events.recordRowsOverSql('c', 'charge.succeeded', { id: 'event_id', data: 'event_data' }, { updatedAt: isoTextSql('c.updated_at') }),
      ]),
  );

  constructor(
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly contexts: ChargeContextService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly clock: Clock,
    private readonly work: WorkTuning,
    private readonly metrics: BillingMetricsService,
    private readonly events: EventsService,
    private readonly oneOffs: OneOffSettlementService,
    private readonly actionRequired: ChargeActionRequiredService,
  ) {}

  /** The attempt's payment was captured (its provider payment id may not be recorded yet: it is written here). */
  async succeed(claim: ClaimedCharge, attempt: ChargeAttempt): Promise<ChargeOutcome> {
    if (claim.row.kind === 'one_off') return this.oneOffs.succeed(claim, attempt);
    const charge = claim.row;
    const now = this.clock.now();
    const { plan, subscription, payer } = await this.contexts.of(claim);
    const event = { chargeId: charge.id, amount: charge.amount, currency: charge.currency };
    const attemptCount = charge.attemptCount + 1;
    if (subscription.status === 'active' && attempt.number === 1) {
      // The common case in one round trip: the charge and its attempt settled, the audit event appended and
      // charge.succeeded recorded (its only attempt is this one; updatedAt is the statement's own), together with
      // the settlements of other workers that came while the statements before were in flight.
      const paid = { ...charge, status: 'succeeded', step: 'done', nextAttemptAt: null, attemptCount, lastErrorCode: null } as Charge;
      const object = toChargeResponse(paid, [{ ...attempt, status: 'succeeded' } as ChargeAttempt]);
      const settled = await this.settlements.submit({
        chargeId: charge.id,
        fence: claim.fence,
        attemptCount,
        attemptId: attempt.id,
        paymentId: attempt.providerPaymentId,
        at: now,
        eventId: this.events.newId(),
        eventData: { object },
        auditData: event,
      });
      if (!settled) this.queue.lost(claim);
      Object.assign(charge, { status: 'succeeded', step: 'done', nextAttemptAt: null, attemptCount, updatedAt: now });
    } else {
      await this.charges.transaction(async (em) => {
        const recoveredBy = recoveredByAttempt(charge, attempt, payer.activeBindingId);
        await this.queue.write(claim, { status: 'succeeded', step: 'done', nextAttemptAt: null, notBefore: null, technicalFailures: 0, attemptCount, lastErrorCode: null, recoveredBy }, { release: true, em });
        await this.attempts.markFinal(em, { id: attempt.id, paymentId: attempt.providerPaymentId }, { status: 'succeeded' });
        await this.announce(em, charge.id, ['charge.succeeded']);
        await this.lifecycle.chargeSucceeded(em, charge.subscriptionId as string, plan, event, now);
      });
    }
    this.metrics.charges.inc({ outcome: 'succeeded' });
    if (attemptCount > 1) this.metrics.dunningAttempts.inc({ result: 'recovered' });
    return 'succeeded';
  }

  /**
   * A charge the credit balance paid whole: settled without a provider call, with the audit event and
   * `charge.succeeded` any success makes.
   */
  async settleFromBalance(claim: ClaimedCharge): Promise<ChargeOutcome> {
    if (claim.row.kind === 'one_off') return this.oneOffs.succeed(claim);
    const charge = claim.row;
    const now = this.clock.now();
    const { plan } = await this.contexts.of(claim);
    await this.charges.transaction(async (em) => {
      const recoveredBy: RecoveredBy | null = charge.dunningStartedAt ? 'balance' : null;
      await this.queue.write(claim, { status: 'succeeded', step: 'done', nextAttemptAt: null, notBefore: null, technicalFailures: 0, lastErrorCode: null, recoveredBy }, { release: true, em });
      await this.announce(em, charge.id, ['charge.succeeded']);
      await this.lifecycle.chargeSucceeded(em, charge.subscriptionId as string, plan, { chargeId: charge.id, amount: charge.amount, currency: charge.currency }, now);
    });
    this.metrics.charges.inc({ outcome: 'succeeded' });
    return 'succeeded';
  }

  /** A definite decline: the ladder decides between a retry, waiting for a new card and the final action. */
  async decline(claim: ClaimedCharge, code: string, attempt: ChargeAttempt): Promise<ChargeOutcome> {
    // A one-off is not dunned: a decline ends it, and leaves its subscription as it was.
    if (claim.row.kind === 'one_off') return this.oneOffs.fail(claim, code, attempt, true);
    const attemptedAt = attempt.attemptedAt;
    const charge = claim.row;
    const now = this.clock.now();
    const { payer, subscription, dunning } = await this.contexts.of(claim);
    const declined = { id: attempt.id, paymentId: attempt.providerPaymentId, errorCode: code };
    const dunningStartedAt = charge.dunningStartedAt ?? attemptedAt;
    // Recorded with every decline: what dunned the charge, and the card declined first (to tell a card update later).
    const dunningFields = { dunningStartedAt, dunningStrategy: dunningGroup(dunning), dunningBindingId: charge.dunningBindingId ?? payer.activeBindingId };
    const kind = classifyDecline(code);
    this.metrics.charges.inc({ outcome: kind === 'hard' ? 'declined_hard' : 'declined_soft' });
    // The subscription ended while this payment was in flight: no further attempt, whatever the ladder says.
    if (await this.lifecycle.hasEnded(charge.subscriptionId as string)) return this.exhaust(claim, code, dunning.finalAction, declined, dunningFields);

    if (attempt.manual && attempt.ladderPosition) {
      // Outside the ladder: the charge goes back where its ladder stood (or waits for a new card after a hard decline),
      // and the subscription keeps its status.
      const state = stateAfterManualDecline(attempt.ladderPosition, kind, dunning.deadline(dunningStartedAt), payer.activeBindingId);
      await this.markPastDue(claim, code, now, declined, { ...state, ...dunningFields }, true);
      return 'declined';
    }
    // The ladder's declines in order, this one last whether or not an earlier worker already recorded it; manual ones never count.
    const earlier = (await this.attempts.ofCharge(charge.id))
      .filter((a) => a.id !== attempt.id && a.status === 'declined' && !a.manual)
      .sort((a, b) => a.number - b.number);
    const history = [...earlier, { attemptedAt, errorCode: code }];
    const decision = dunning.afterDecline(history, subscription.timezone, dunningStartedAt);
    if (decision.kind === 'give_up') return this.exhaust(claim, code, dunning.finalAction, declined, dunningFields);
    // The declined card is remembered where a new card should make the charge due at once.
    if (decision.kind === 'retry') {
      const declinedBindingId = dunning.retriesAtOnceOnNewCard ? payer.activeBindingId : null;
      await this.markPastDue(claim, code, now, declined, { ...dunningFields, declinedBindingId, status: 'retrying', step: 'create_payment', nextAttemptAt: decision.at });
    } else {
      await this.markPastDue(claim, code, now, declined, { ...dunningFields, declinedBindingId: payer.activeBindingId, status: 'failed', step: 'awaiting_card', nextAttemptAt: decision.until });
    }
    return 'declined';
  }

  /** A charge that waited for a new card in vain: the ladder's window is over. */
  async applyFinalAction(claim: ClaimedCharge): Promise<ChargeOutcome> {
    const { dunning } = await this.contexts.of(claim);
    return this.exhaust(claim, claim.row.lastErrorCode ?? 'hard_decline', dunning.finalAction);
  }

  /**
   * The provider refused the charge itself (not the card): an operator must look. The charge stops and
   * can be retried by hand; the subscription keeps its status, since the payer did nothing wrong.
   */
  async fail(claim: ClaimedCharge, code: string, attempt?: ChargeAttempt): Promise<ChargeOutcome> {
    if (claim.row.kind === 'one_off') return this.oneOffs.fail(claim, code, attempt, false);
    const charge = claim.row;
    const now = this.clock.now();
    await this.charges.transaction(async (em) => {
      await this.queue.write(claim, { status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null, lastErrorCode: code }, { release: true, em });
      if (attempt) await this.attempts.markFinal(em, { id: attempt.id, paymentId: attempt.providerPaymentId }, { status: 'declined', errorCode: code });
      await this.announce(em, charge.id, ['charge.failed']);
      await this.lifecycle.chargeNeedsOperator(em, charge.subscriptionId as string, { chargeId: charge.id, errorCode: code }, now);
    });
    this.metrics.charges.inc({ outcome: 'failed' });
    return 'failed';
  }

  /** A technical failure: the same step again after a real-time backoff that never uses up an attempt. */
  async backOff(claim: ClaimedCharge, error: unknown): Promise<ChargeOutcome> {
    const charge = claim.row;
    const failures = charge.technicalFailures + 1;
    const delayMs = backoffDelayMs(failures, this.work.backoffMs, this.work.maxBackoffMs);
    const code = error instanceof ProviderError ? `${error.kind}${error.code ? `:${error.code}` : ''}` : 'internal_error';
    await this.queue.write(claim, { technicalFailures: failures, nextAttemptAt: charge.nextAttemptAt ?? this.clock.now(), lastErrorCode: code }, { release: true, notBeforeMs: delayMs });
    this.metrics.charges.inc({ outcome: 'technical_retry' });
    return 'unknown';
  }

  /** The ladder is over: the charge fails and the final action (cancel or unpaid) applies to the subscription. */
  private async exhaust(claim: ClaimedCharge, code: string, finalAction: 'cancel' | 'unpaid', declined?: DeclinedAttempt, dunningFields: ChargeChanges = {}): Promise<ChargeOutcome> {
    const charge = claim.row;
    const now = this.clock.now();
    await this.charges.transaction(async (em) => {
      await this.queue.write(
        claim,
        { ...dunningFields, status: 'failed', step: 'done', nextAttemptAt: null, notBefore: null, attemptCount: charge.attemptCount + (declined ? 1 : 0), lastErrorCode: code },
        { release: true, em },
      );
      if (declined) await this.attempts.markFinal(em, declined, { status: 'declined', errorCode: declined.errorCode });
      // The last declined attempt is announced, then that no automatic attempt follows.
      // Only the customer can pay it now: they get a recovery link too.
      await this.announce(em, charge.id, declined ? ['charge.declined', 'charge.failed'] : ['charge.failed'], true);
      await this.lifecycle.dunningExhausted(em, charge.subscriptionId as string, { chargeId: charge.id, errorCode: code, finalAction }, now);
    });
    this.metrics.charges.inc({ outcome: 'failed' });
    return 'failed';
  }

  private async markPastDue(claim: ClaimedCharge, code: string, now: Date, declined: DeclinedAttempt, changes: ChargeChanges, outsideLadder = false): Promise<void> {
    const charge = claim.row;
    await this.charges.transaction(async (em) => {
      await this.queue.write(claim, { ...changes, attemptCount: charge.attemptCount + 1, lastErrorCode: code, notBefore: null, technicalFailures: 0 }, { release: true, em });
      await this.attempts.markFinal(em, declined, { status: 'declined', errorCode: declined.errorCode });
      // A hard decline too is only a decline: collection resumes by itself once a new card is bound.
      // A wait for a new card begins: a recovery link too (an operator's retry declined goes back to a wait whose link still works).
      await this.announce(em, charge.id, ['charge.declined'], changes.step === 'awaiting_card' && !outsideLadder);
      await this.lifecycle.chargeDeclined(
        em,
        charge.subscriptionId as string,
        {
          chargeId: charge.id,
          errorCode: code,
          nextAttemptAt: changes.nextAttemptAt instanceof Date ? changes.nextAttemptAt.toISOString() : null,
          waitsForNewCard: changes.step === 'awaiting_card',
          outsideLadder,
        },
        now,
      );
    });
  }

  /**
   * Records `types` for the charge as GET shows it now, read once in the settling transaction; with `actionRequired`,
   * `charge.action_required` with a fresh recovery link after them.
   */
  private async announce(em: EntityManager, chargeId: string, types: EventType[], actionRequired = false): Promise<void> {
    const charge = await this.charges.findById(chargeId, em);
    if (!charge) return;
    const object = toChargeResponse(charge, await this.attempts.ofCharge(chargeId, em));
    await this.events.record(
      em,
      types.map((type) => ({ type, data: { object } })),
    );
    if (actionRequired) await this.actionRequired.announceIn(em, charge, object);
  }
}

/**
 * What paid a charge whose first attempt was declined (null for any other): a card bound since the first decline (the
 * payer's card in use differs from the one declined first), else an operator's retry, else a scheduled retry.
 */
function recoveredByAttempt(charge: Charge, attempt: ChargeAttempt, activeBindingId: string | null): RecoveredBy | null {
  if (!charge.dunningStartedAt) return null;
  // A card bound since the first decline is what paid, whoever started the attempt (a recovery link's retry is manual).
  if (charge.dunningBindingId && activeBindingId !== charge.dunningBindingId) return 'card_update';
  if (attempt.manual) return 'manual_retry';
  return 'retry';
}
