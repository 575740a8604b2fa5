import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { EventsService } from '../events/events.service';
import type { SqlFragment } from '../database/sql-statement';
import type { Plan } from '../plans/plan.entity';
import { continueOnSchedule } from './continue-on-schedule';
import { startNewSchedule } from './start-new-schedule';
import { subscriptionChangeEvent, SubscriptionView } from './subscription-change-event';
import { AuditEvent, SubscriptionEventsRepository } from './subscription-events.repository';
import type { SubscriptionEvent } from './subscription-event.entity';
import { toSubscriptionResponse } from './subscription-response';
import { countedDown, discountAppliesTo, Subscription, SubscriptionStatus } from './subscription.entity';
import { DueFilter, SubscriptionsRepository } from './subscriptions.repository';
import { BillingFailure, SubscriptionBillingErrorsService } from './subscription-billing-errors.service';
import type { CancelListener, ChangeEventType, CreatedListener, EndListener, StartedPeriod } from './subscription-lifecycle.types';

export type { DueFilter } from './subscriptions.repository';
export type { StartedPeriod } from './subscription-lifecycle.types';

/**
 * The one owner of a subscription's status. Every change (user actions, billing outcomes) goes through here
 * and writes its audit event, and the merchant event a change of status, period or cancel-at-period-end makes, in
 * the caller's transaction, so a change and its records commit together.
 */
@Injectable()
export class SubscriptionLifecycleService {
  private readonly cancelListeners: CancelListener[] = [];
  private readonly createdListeners: CreatedListener[] = [];
  private readonly endListeners: EndListener[] = [];

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly audit: SubscriptionEventsRepository,
    private readonly clock: Clock,
    private readonly events: EventsService,
    private readonly billingErrors: SubscriptionBillingErrorsService,
  ) {}

  onCancel(listener: CancelListener): void {
    this.cancelListeners.push(listener);
  }

  onCreated(listener: CreatedListener): void {
    this.createdListeners.push(listener);
  }

  onEnd(listener: EndListener): void {
    this.endListeners.push(listener);
  }

  /** Whether the subscription has ended (canceled): billing starts no further payment for it. */
  async hasEnded(subscriptionId: string): Promise<boolean> {
    return (await this.subscriptions.findById(subscriptionId))?.status === 'canceled';
  }

  /** Incomplete subscriptions whose customer became ready start now (or at their start, if later). */
  async activateReady(em: EntityManager, now: Date, limit: number): Promise<number> {
    const rows = await this.subscriptions.lockIncompleteOfReadyCustomers(em, limit);
    for (const s of rows) {
      const before = toSubscriptionResponse(s);
      s.status = 'active';
      s.billingAnchor = s.startAt > now ? s.startAt : now;
      s.nextBillingAt = s.billingAnchor;
      s.nextPeriodIndex = 0;
      s.updatedAt = now;
      await this.subscriptions.save(em, s);
      await this.audit.record(em, { subscriptionId: s.id, type: 'activated', from: 'incomplete', to: 'active', data: { billingAnchor: s.billingAnchor.toISOString() } }, now);
      await this.announce(em, before, s);
    }
    return rows.length;
  }

  /** Billable subscriptions of ready customers whose next period has begun, locked for this transaction. */
  lockDue(em: EntityManager, now: Date, limit: number, filter?: DueFilter): Promise<Subscription[]> {
    return this.subscriptions.lockDue(em, now, limit, filter);
  }

  /** A pass could not bill the subscription's due period: see SubscriptionBillingErrorsService.record. */
  billingFailed(em: EntityManager, subscriptionId: string, failure: BillingFailure, now: Date, retryAt: (failures: number) => Date): Promise<number | null> {
    return this.billingErrors.record(em, subscriptionId, failure, now, retryAt);
  }

  /** One subscription locked for a change in the caller's transaction, with how the API shows it before. */
  async lockForChange(em: EntityManager, id: string): Promise<{ subscription: Subscription; before: SubscriptionView }> {
    const s = await this.lock(em, id);
    if (!s) throw new NotFoundException(`No subscription ${id}`);
    return { subscription: s, before: toSubscriptionResponse(s) };
  }

  /**
   * A plan or quantity change (or a pending change scheduled or dropped) made to `s` in the caller's transaction:
   * saved, written to the audit trail with its figures (the event's id `actionId`, see actionRecorded), and announced
   * (`subscription.updated`, `data.previous`).
   */
  async recordChange(em: EntityManager, s: Subscription, before: SubscriptionView, type: ChangeEventType, data: Record<string, unknown>, now: Date, actionId?: string): Promise<void> {
    s.updatedAt = now;
    await this.subscriptions.save(em, s);
    await this.audit.record(em, { id: actionId, subscriptionId: s.id, type, data }, now);
    if (before.discount && !s.discount) await this.audit.record(em, { subscriptionId: s.id, type: 'discount_removed', data: { ...before.discount, reason: 'plan_change' } }, now); // the coupon does not apply on the new plan
    await this.announce(em, before, s);
  }

  /**
   * The audit event a user action wrote under `actionId` (the id its Idempotency-Key reserved), or null: found, the
   * action was done by an earlier run of the same key whose answer was lost, and a repeat answers it, not a 409.
   */
  actionRecorded(subscriptionId: string, actionId: string): Promise<SubscriptionEvent | null> {
    return this.audit.findOfSubscription(subscriptionId, actionId);
  }

  /**
   * The number the subscription's next change gets (1 for its first), read with the subscription locked: the change's
   * identity where a record of it must be unique (its credit), whatever instant the change is made at.
   */
  async nextChangeNumber(em: EntityManager, subscriptionId: string): Promise<number> {
    return (await this.audit.countChanges(em, subscriptionId)) + 1;
  }

  /**
   * A renewal reached a pending change: the subscription moves to its plan and quantity before the period is
   * charged. Another interval starts a new schedule at the renewal (the anchor moves there).
   */
  async applyPendingChange(em: EntityManager, s: Subscription, plans: { from: Pick<Plan, 'interval' | 'intervalCount'>; to: Pick<Plan, 'id' | 'currency' | 'interval' | 'intervalCount'> }, now: Date): Promise<void> {
    const pending = s.pendingChange;
    if (!pending) return;
    const before = toSubscriptionResponse(s);
    const from = { planId: s.planId, quantity: s.quantity };
    s.planId = pending.planId;
    s.quantity = pending.quantity;
    s.pendingChange = null;
    if (s.discount && !discountAppliesTo(s.discount, plans.to)) s.discount = null;
    if (plans.from.interval !== plans.to.interval || plans.from.intervalCount !== plans.to.intervalCount) startNewSchedule(s, plans.to, s.nextBillingAt as Date, false);
    await this.recordChange(em, s, before, 'changed', { effective: 'period_end', from, to: { planId: s.planId, quantity: s.quantity }, credit: 0, cost: 0, net: 0 }, now);
  }

  /** A subscription set to cancel at its period end reached that end. */
  async endAtPeriodBoundary(em: EntityManager, s: Subscription, now: Date): Promise<void> {
    const before = toSubscriptionResponse(s);
    const from = s.status;
    s.status = 'canceled';
    s.canceledAt = s.nextBillingAt;
    s.nextBillingAt = null;
    s.cancelAtPeriodEnd = false;
    s.updatedAt = now;
    await this.subscriptions.save(em, s);
    for (const listener of this.endListeners) await listener(em, s.id, now);
    await this.audit.record(em, { subscriptionId: s.id, type: 'canceled', from, to: 'canceled', data: { reason: 'canceled at period end' } }, now);
    await this.announce(em, before, s);
  }

  /**
   * Subscriptions enter their next period (a trial that ended becomes active), a whole batch in two statements:
   * one update of the subscriptions, one insert of their audit events and merchant events (a renewal is a
   * `subscription.updated`).
   */
  async startPeriods(em: EntityManager, started: { subscription: Subscription; period: StartedPeriod }[], now: Date): Promise<void> {
    if (started.length === 0) return;
    const events: AuditEvent[] = [];
    const before = started.map((x) => toSubscriptionResponse(x.subscription));
    for (const { subscription: s, period } of started) {
      const from = s.status;
      s.nextPeriodIndex = period.index + 1;
      s.currentPeriodStart = period.start;
      s.currentPeriodEnd = period.end;
      s.nextBillingAt = period.end;
      if (s.status === 'trialing') s.status = 'active';
      if (from !== s.status) events.push({ subscriptionId: s.id, type: 'trial_ended', from, to: s.status });
      // updatePeriods clears the error in the database.
      if (s.billingError) {
        events.push({ subscriptionId: s.id, type: 'billing_recovered', data: { code: s.billingError.code, failures: s.billingError.failures, since: s.billingError.since } });
        s.billingError = null;
        s.billingRetryAt = null;
      }
      if (period.charge) {
        events.push({
          subscriptionId: s.id,
          type: 'period_billed',
          data: { chargeId: period.charge.id, periodStart: period.start.toISOString(), periodEnd: period.end.toISOString(), amount: period.charge.amount, discountAmount: period.charge.discountAmount },
        });
        const ended = period.discounted ? s.discount : null;
        if (ended) s.discount = countedDown(ended);
        if (ended && !s.discount) events.push({ subscriptionId: s.id, type: 'discount_ended', data: { couponId: ended.couponId, code: ended.code, fullPriceAt: period.end.toISOString() } });
      }
    }
    const rows = started.map((x) => x.subscription);
    await this.subscriptions.updatePeriods(em, rows, now);
    for (const s of rows) s.updatedAt = now;
    const merchant = rows.map((s, i) => subscriptionChangeEvent(before[i], toSubscriptionResponse(s))).filter((e) => e !== null);
    await this.audit.recordMany(em, events, now, merchant.length > 0 ? this.events.recordSql(merchant) : undefined);
  }

  /**
   * Periods missed beyond the catch-up cap (the daemon was down) are passed over, and the subscription goes on from
   * the first period it will charge: `count` periods from `firstStart`, of which `periods`, the newest, billing recorded
   * as skipped charges (the audit event names the whole range, so a bounded number of charges accounts for every one).
   */
  async periodsSkipped(
    em: EntityManager,
    s: Subscription,
    skipped: { nextIndex: number; nextStart: Date; periods: { chargeId: string; start: Date }[]; count: number; firstStart: Date },
    now: Date,
  ): Promise<void> {
    s.nextPeriodIndex = skipped.nextIndex;
    s.nextBillingAt = skipped.nextStart;
    s.updatedAt = now;
    await this.subscriptions.updateSchedule(em, s);
    const data = {
      count: skipped.count,
      firstPeriodStart: skipped.firstStart.toISOString(),
      lastPeriodStart: skipped.periods[skipped.periods.length - 1].start.toISOString(),
      recordedAsCharges: skipped.periods.length,
      chargeIds: skipped.periods.map((p) => p.chargeId),
      periodStarts: skipped.periods.map((p) => p.start.toISOString()),
    };
    await this.audit.record(em, { subscriptionId: s.id, type: 'periods_skipped', data }, now);
  }

  /**
   * The `charge_succeeded` audit events of a group commit's settled charges, for active subscriptions only (whose
   * status does not change; see chargeSucceededRowsSql): billing settles them and records these in one statement.
   */
  chargeSucceededAuditRowsSql(source: string, columns: { data: string; at: string }): SqlFragment {
    return this.audit.chargeSucceededRowsSql(source, columns);
  }

  /** A charge was paid: a subscription in trouble (or still trialing) becomes active again. */
  async chargeSucceeded(em: EntityManager, subscriptionId: string, plan: Plan, data: { chargeId: string; amount: number; currency: string }, now: Date): Promise<void> {
    const s = await this.lock(em, subscriptionId);
    if (!s) return;
    if (s.status === 'past_due' || s.status === 'trialing' || s.status === 'unpaid') {
      const before = toSubscriptionResponse(s);
      const from = s.status;
      s.status = 'active';
      if (from === 'unpaid' && s.billingAnchor) {
        // Billing stopped while unpaid; it resumes at the next boundary of the original schedule.
        continueOnSchedule(s, plan, now);
      }
      s.updatedAt = now;
      await this.subscriptions.save(em, s);
      await this.audit.record(em, { subscriptionId: s.id, type: from === 'trialing' ? 'activated' : 'recovered', from, to: 'active', data: { chargeId: data.chargeId } }, now);
      await this.announce(em, before, s);
    }
    await this.audit.record(em, { subscriptionId: s.id, type: 'charge_succeeded', data }, now);
  }

  /** A payment attempt was declined: the subscription is past due while dunning runs. */
  async chargeDeclined(
    em: EntityManager,
    subscriptionId: string,
    data: { chargeId: string; errorCode: string; nextAttemptAt: string | null; waitsForNewCard: boolean; outsideLadder: boolean },
    now: Date,
  ): Promise<void> {
    const s = await this.lock(em, subscriptionId);
    if (!s) return;
    // A manual retry outside the ladder leaves the status as it was: only the ladder's declines make a subscription past due.
    if ((s.status === 'active' || s.status === 'trialing') && !data.outsideLadder) {
      const before = toSubscriptionResponse(s);
      const from = s.status;
      s.status = 'past_due';
      s.updatedAt = now;
      await this.subscriptions.save(em, s);
      await this.audit.record(em, { subscriptionId: s.id, type: 'past_due', from, to: 'past_due', data: { chargeId: data.chargeId } }, now);
      await this.announce(em, before, s);
    }
    await this.audit.record(em, { subscriptionId: s.id, type: 'charge_declined', data }, now);
  }

  /** Dunning ran out for a charge: the final action (cancel or unpaid) applies. */
  async dunningExhausted(em: EntityManager, subscriptionId: string, data: { chargeId: string; errorCode: string; finalAction: 'cancel' | 'unpaid' }, now: Date): Promise<void> {
    const s = await this.lock(em, subscriptionId);
    if (!s || s.status === 'canceled') return;
    const before = toSubscriptionResponse(s);
    await this.audit.record(em, { subscriptionId: s.id, type: 'dunning_exhausted', data }, now);
    if (data.finalAction === 'cancel') {
      await this.cancelNow(em, s, now, 'canceled_unpaid', data.chargeId);
    } else if (s.status !== 'unpaid') {
      const from = s.status;
      s.status = 'unpaid';
      s.nextBillingAt = null;
      s.updatedAt = now;
      await this.audit.record(em, { subscriptionId: s.id, type: 'unpaid', from, to: 'unpaid' }, now);
    }
    await this.subscriptions.save(em, s);
    await this.announce(em, before, s);
  }

  /** A fact about a charge that changes nothing of the subscription (a one-off paid or failed), in its audit trail. */
  async chargeRecorded(em: EntityManager, subscriptionId: string, type: 'charge_succeeded' | 'charge_failed', data: Record<string, unknown>, now: Date): Promise<void> {
    await this.audit.record(em, { subscriptionId, type, data }, now);
  }

  /** The provider refused a charge itself: recorded for an operator; the status stays (the payer did nothing wrong). */
  async chargeNeedsOperator(em: EntityManager, subscriptionId: string, data: { chargeId: string; errorCode: string }, now: Date): Promise<void> {
    await this.audit.record(em, { subscriptionId, type: 'charge_failed', data: { ...data, needsOperator: true } }, now);
  }

  async cancel(id: string, atPeriodEnd: boolean, actionId?: string): Promise<Subscription> {
    return this.change(id, actionId, async (em, s, now) => {
      if (s.status === 'canceled') throw new ConflictException('The subscription is already canceled');
      // Without a running paid period (incomplete, paused, unpaid) there is no period end to wait for.
      const hasRunningPeriod = ['trialing', 'active', 'past_due'].includes(s.status);
      if (atPeriodEnd && hasRunningPeriod) {
        if (s.cancelAtPeriodEnd) return;
        s.cancelAtPeriodEnd = true;
        s.updatedAt = now;
        await this.audit.record(em, { id: actionId, subscriptionId: s.id, type: 'cancel_scheduled', data: { at: s.nextBillingAt?.toISOString() ?? null } }, now);
        return;
      }
      await this.cancelNow(em, s, now, 'canceled', undefined, actionId);
    });
  }

  async pause(id: string, actionId?: string): Promise<Subscription> {
    return this.change(id, actionId, async (em, s, now) => {
      if (!['incomplete', 'trialing', 'active', 'past_due'].includes(s.status)) {
        throw new ConflictException(`A ${s.status} subscription cannot be paused`);
      }
      const from = s.status;
      s.status = 'paused';
      s.pausedAt = now;
      s.nextBillingAt = null;
      s.updatedAt = now;
      await this.audit.record(em, { id: actionId, subscriptionId: s.id, type: 'paused', from, to: 'paused' }, now);
    });
  }

  /** `plan` is read by the caller outside the transaction: the plan never changes its schedule. */
  async resume(id: string, plan: Pick<Plan, 'interval' | 'intervalCount'>, actionId?: string): Promise<Subscription> {
    return this.change(id, actionId, async (em, s, now) => {
      if (s.status !== 'paused') throw new ConflictException(`Only a paused subscription can be resumed; this one is ${s.status}`);
      if (!s.billingAnchor) {
        s.status = 'incomplete';
      } else {
        // Periods that fell inside the pause are skipped, not billed; billing goes on from the next
        // boundary on the original schedule.
        continueOnSchedule(s, plan, now);
        s.status = s.trialEndsAt && s.trialEndsAt > now ? 'trialing' : 'active';
      }
      s.pausedAt = null;
      // The period that failed fell inside the pause: the next renewal is tried afresh.
      s.billingError = null;
      s.billingRetryAt = null;
      s.updatedAt = now;
      const data = { nextBillingAt: s.nextBillingAt?.toISOString() ?? null };
      await this.audit.record(em, { id: actionId, subscriptionId: s.id, type: 'resumed', from: 'paused', to: s.status, data }, now);
    });
  }

  /** A new subscription's first audit event (and what other modules add to it), in the transaction that creates it. */
  async created(em: EntityManager, s: Subscription, plan: Plan, status: SubscriptionStatus, data: Record<string, unknown>, now: Date): Promise<void> {
    await this.audit.record(em, { subscriptionId: s.id, type: 'created', to: status, data }, now);
    for (const listener of this.createdListeners) await listener(em, s, plan, now);
    await this.announce(em, null, s);
  }

  private async cancelNow(em: EntityManager, s: Subscription, now: Date, type: string, keepChargeId?: string, actionId?: string): Promise<void> {
    const from = s.status;
    s.status = 'canceled';
    s.canceledAt = now;
    s.nextBillingAt = null;
    s.cancelAtPeriodEnd = false;
    s.updatedAt = now;
    for (const listener of this.cancelListeners) await listener(em, s.id, keepChargeId);
    for (const listener of this.endListeners) await listener(em, s.id, now);
    await this.audit.record(em, { id: actionId, subscriptionId: s.id, type, from, to: 'canceled' }, now);
  }

  /** The merchant event of the change from `before` to `s` (as saved, so its updatedAt is what GET shows), if any. */
  private async announce(em: EntityManager, before: SubscriptionView | null, s: Subscription): Promise<void> {
    const event = subscriptionChangeEvent(before, toSubscriptionResponse(s));
    if (event) await this.events.record(em, event);
  }

  private lock(em: EntityManager, id: string): Promise<Subscription | null> {
    return this.subscriptions.lock(em, id);
  }

  /**
   * Loads, locks and saves one subscription around a user action, in one short transaction. `actionId`: the id its
   * Idempotency-Key reserved, the id of the action's audit event; when an earlier run wrote it, the subscription is
   * answered as it is.
   */
  async change(id: string, actionId: string | undefined, apply: (em: EntityManager, s: Subscription, now: Date) => Promise<void>): Promise<Subscription> {
    const now = this.clock.now();
    return this.subscriptions.transaction(async (em) => {
      const s = await this.lock(em, id);
      if (!s) throw new NotFoundException(`No subscription ${id}`);
      if (actionId !== undefined && (await this.actionRecorded(s.id, actionId))) return s;
      const before = toSubscriptionResponse(s);
      await apply(em, s, now);
      await this.subscriptions.save(em, s);
      await this.announce(em, before, s);
      return s;
    });
  }
}
