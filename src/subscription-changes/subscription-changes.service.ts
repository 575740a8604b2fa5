import { ConflictException, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { ProrationChargesService } from '../billing/proration-charges.service';
import { Clock } from '../common/clock/clock';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { MAX_AMOUNT } from '../common/money/amount-limits';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { ChangeQuote, PriceSide, quoteChange } from '../subscriptions/change-quote';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { toSubscriptionResponse } from '../subscriptions/subscription-response';
import { discountAppliesTo, Subscription, SubscriptionDiscount } from '../subscriptions/subscription.entity';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { startNewSchedule } from '../subscriptions/start-new-schedule';
import { creditBalanceOverLimit, periodAmountOrRefuse } from '../subscriptions/period-amount-limit';
import { ChangeSubscriptionDto } from './dto/change-subscription.dto';
import { ChangeFigures, figuresOf, recordedFigures } from './change-figures';

export interface ChangeResult {
  subscription: ReturnType<typeof toSubscriptionResponse>;
  change: ChangeFigures;
  chargeId: string | null;
}

const notChangeable = (message: string) => withErrorCode(new ConflictException(message), 'subscription_not_changeable');

/** A side of the change, priced after the subscription's discount where that still applies on the plan. */
const side = (plan: Plan, quantity: number, discount: SubscriptionDiscount | null): PriceSide => ({
  planId: plan.id,
  planAmount: plan.amount,
  interval: plan.interval,
  intervalCount: plan.intervalCount,
  quantity,
  discount: discount && discountAppliesTo(discount, plan) ? discount : null,
});

/**
 * Plan and quantity changes (contract v1.2). The preview and the change run the same code on the same snapshot,
 * read under the subscription's row lock and the customer's balance lock, so their figures agree; the change
 * writes the subscription, its proration charge (with the credit balance applied) or its credit, its audit event
 * and its merchant event in one transaction, before any provider call.
 */
@Injectable()
export class SubscriptionChangesService {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly plans: PlansService,
    private readonly charges: ProrationChargesService,
    private readonly balances: BalancesService,
    private readonly clock: Clock,
  ) {}

  async preview(id: string, dto: ChangeSubscriptionDto): Promise<ChangeFigures> {
    return (await this.run(id, dto, false)).change;
  }

  /**
   * `actionId`: the id the request's Idempotency-Key reserved, the change's audit event's. A re-run of the key whose
   * first run made the change (its answer lost) answers it from that event, where the change is no longer possible.
   */
  async change(id: string, dto: ChangeSubscriptionDto, actionId?: string): Promise<ChangeResult> {
    const made = actionId === undefined ? null : await this.lifecycle.actionRecorded(id, actionId);
    if (made) {
      const subscription = toSubscriptionResponse(await this.subscriptions.get(id));
      return { subscription, change: recordedFigures(made.data), chargeId: (made.data.chargeId as string | undefined) ?? null };
    }
    const result = await this.run(id, dto, true, actionId);
    if (result.chargeId) this.charges.kick();
    return result;
  }

  /** Drops a pending change; answers the subscription either way (a second DELETE changes nothing). */
  async dropPending(id: string): Promise<ReturnType<typeof toSubscriptionResponse>> {
    await this.subscriptions.get(id);
    const now = this.clock.now();
    return this.subscriptions.transaction(async (em) => {
      const { subscription: s, before } = await this.lifecycle.lockForChange(em, id);
      if (s.pendingChange) {
        const dropped = s.pendingChange;
        s.pendingChange = null;
        await this.lifecycle.recordChange(em, s, before, 'change_dropped', { dropped }, now);
      }
      return toSubscriptionResponse(s);
    });
  }

  private async run(id: string, dto: ChangeSubscriptionDto, apply: boolean, actionId?: string): Promise<ChangeResult> {
    if (dto.planId === undefined && dto.quantity === undefined) throw invalidField('planId', 'planId or quantity is required: name the plan or the quantity to move to');
    const now = this.clock.now();
    const found = await this.subscriptions.get(id);
    const target = dto.planId ? await this.plans.getForSubscription(dto.planId) : null;
    const current = await this.plans.get(found.planId);
    if (target && (target.currency !== current.currency || target.shopId !== current.shopId)) {
      throw withErrorCode(new UnprocessableEntityException(`planId must name a plan in ${current.currency} of shop ${current.shopId}, like the subscription's`), 'business_rule', { field: 'planId' });
    }
    return this.subscriptions.transaction(async (em) => {
      const { subscription: s, before } = await this.lifecycle.lockForChange(em, id);
      // The plan read before the lock is the one locked unless a concurrent change moved it.
      const from = s.planId === current.id ? current : await this.plans.get(s.planId, em);
      const to = target ?? from;
      const quantity = dto.quantity ?? s.quantity;
      // Any plan fits at some quantity (its own amount is bounded), so a quantity asked for is what to lower.
      periodAmountOrRefuse(to.amount, quantity, dto.quantity !== undefined ? 'quantity' : 'planId');
      await this.checkChangeable(em, s, to, dto, now);
      // Before its first period (a start still ahead) a subscription changes like one in a trial: nothing to prorate.
      const unbilled = s.status === 'trialing' || !s.currentPeriodStart || !s.currentPeriodEnd;
      const status = unbilled ? 'trialing' : 'active';
      const periodStart = (s.status === 'trialing' ? s.currentPeriodStart ?? s.startAt : s.currentPeriodStart ?? now) as Date;
      const periodEnd = (s.status === 'trialing' ? s.trialEndsAt : s.currentPeriodEnd ?? s.nextBillingAt ?? now) as Date;
      const paid = status === 'active' && (await this.charges.periodPaid(em, s.id, periodStart));
      const balance = await this.balances.lockedBalance(em, s.customerId, current.currency);
      const quote = quoteChange({
        now,
        timezone: s.timezone,
        status,
        periodStart,
        periodEnd,
        paid,
        current: side(from, s.quantity, s.discount),
        next: side(to, quantity, s.discount),
        effective: dto.effective,
        prorate: dto.prorate,
        balance,
      });
      if (quote.creditAdded > 0 && quote.balanceAfter > MAX_AMOUNT) throw creditBalanceOverLimit(quote.balanceAfter, current.currency, dto.planId !== undefined ? 'planId' : 'quantity');
      if (quote.effective === 'period_end' && s.cancelAtPeriodEnd) throw notChangeable('The subscription ends at its period end: a change at period end would never apply');
      if (quote.reanchor && quote.chargeAmount > 0 && (await this.charges.periodStartsAt(em, s.id, now))) {
        throw notChangeable(`A period of this subscription starts at ${now.toISOString()} already: another interval cannot start a second one at the same instant; change it a moment later`);
      }
      const change = figuresOf(quote, from, to, s.quantity, quantity);
      if (!apply) return { subscription: toSubscriptionResponse(s), change, chargeId: null };
      const chargeId = await this.apply(em, s, before, quote, { from, to, quantity, actionId }, change, now);
      return { subscription: toSubscriptionResponse(s), change, chargeId };
    });
  }

  private async checkChangeable(em: EntityManager, s: Subscription, to: Plan, dto: ChangeSubscriptionDto, now: Date): Promise<void> {
    if (s.status !== 'active' && s.status !== 'trialing') {
      const hint = s.status === 'past_due' ? ': collect its charge first' : '';
      throw notChangeable(`A ${s.status} subscription cannot change plan or quantity${hint}; only active and trialing ones can`);
    }
    if (await this.charges.hasOpenCharge(em, s.id)) throw notChangeable('A charge of this subscription is in flight: change it once that charge is settled');
    if (to.id === s.planId && (dto.quantity ?? s.quantity) === s.quantity) {
      throw withErrorCode(new ConflictException('The subscription is already on this plan and quantity'), 'state_conflict');
    }
    // A change is priced on the period in force. Making the due periods here would not help: their charges would be
    // in flight (credit is given only for a paid period), and this 4xx would have charged something.
    if (await this.subscriptions.billingDue(em, s, now)) {
      throw notChangeable(
        `The period that began at ${(s.nextBillingAt as Date).toISOString()} is not billed yet (billing is behind on this subscription), and a change is ` +
          'priced on the period in force: bill it first (POST /api/v1/billing/run, or wait for the scheduler), then change once its charge is settled',
      );
    }
  }

  private async apply(
    em: EntityManager,
    s: Subscription,
    before: ReturnType<typeof toSubscriptionResponse>,
    quote: ChangeQuote,
    { from, to, quantity, actionId }: { from: Plan; to: Plan; quantity: number; actionId?: string },
    change: ChangeFigures,
    now: Date,
  ): Promise<string | null> {
    const record = { from: { planId: from.id, quantity: s.quantity }, to: { planId: to.id, quantity }, effective: quote.effective, ...change, totalDays: quote.totalDays, remainingDays: quote.remainingDays };
    if (quote.effective === 'period_end') {
      s.pendingChange = { planId: to.id, quantity, effectiveAt: quote.effectiveAt.toISOString() };
      await this.lifecycle.recordChange(em, s, before, 'change_scheduled', record, now, actionId);
      return null;
    }
    const periodStartBefore = s.currentPeriodStart as Date;
    const periodEndBefore = s.currentPeriodEnd as Date;
    s.planId = to.id;
    s.quantity = quantity;
    s.pendingChange = null;
    // The coupon stays only where it still applies on the new plan.
    if (s.discount && !discountAppliesTo(s.discount, to)) s.discount = null;
    // The old period ends now; the new plan's first period starts now and is charged now (less the credit).
    if (quote.reanchor) startNewSchedule(s, to, now, true);
    let chargeId: string | null = null;
    if (quote.chargeAmount > 0) {
      // The invoice outlives the whole dunning window: the ladder (fixed) or maxDays (smart).
      const retryDelaysMs = [this.plans.effectiveDunning(to).windowMs];
      const made = await this.charges.make(
        em,
        {
          subscriptionId: s.id,
          customerId: s.customerId,
          currency: to.currency,
          amount: quote.chargeAmount,
          kind: quote.reanchor ? 'period' : 'proration',
          periodStart: now,
          periodEnd: quote.reanchor ? quote.nextChargeAt : periodEndBefore,
          currentPeriodStart: quote.reanchor ? now : periodStartBefore,
          description: change.lines.map((l) => l.description).join('; ').slice(0, 200),
          retryDelaysMs,
        },
        now,
      );
      chargeId = made.id;
    }
    if (quote.creditAdded > 0) {
      // The change's number, not its instant, names the credit: two changes in one millisecond credit twice.
      const reference = `change:${s.id}:${await this.lifecycle.nextChangeNumber(em, s.id)}`;
      await this.balances.credit(
        em,
        { customerId: s.customerId, currency: to.currency, amount: quote.creditAdded, reference, subscriptionId: s.id, description: change.lines[0]?.description ?? 'credit' },
        now,
      );
    }
    await this.lifecycle.recordChange(em, s, before, 'changed', { ...record, chargeId }, now, actionId);
    return chargeId;
  }
}
