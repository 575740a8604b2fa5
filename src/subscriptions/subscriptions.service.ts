import { Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { Page } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { CouponsService } from '../coupons/coupons.service';
import { CustomersService } from '../customers/customers.service';
import type { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { addTrialDays, isValidTimeZone, periodStart } from '../common/calendar/billing-calendar';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { discountTerms, Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';
import { SubscriptionEventsRepository } from './subscription-events.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { periodAmountOrRefuse } from './period-amount-limit';

const MAX_START_YEARS_AHEAD = 5;

@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly audit: SubscriptionEventsRepository,
    private readonly customers: CustomersService,
    private readonly plans: PlansService,
    private readonly clock: Clock,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly coupons: CouponsService,
  ) {}

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers the subscription made with it. */
  async create(dto: CreateSubscriptionDto, reservedId?: string): Promise<Subscription> {
    const made = reservedId === undefined ? null : await this.subscriptions.findById(reservedId);
    if (made) return made;
    const timezone = dto.timezone ?? 'UTC';
    if (!isValidTimeZone(timezone)) {
      throw invalidField('timezone', `timezone must be an IANA time zone such as Europe/Moscow or UTC, not "${timezone}"`);
    }
    const plan = await this.plans.getForSubscription(dto.planId);
    const customer = await this.customers.findStanding(dto.customerId);
    if (!customer) throw withErrorCode(new NotFoundException(`customerId ${dto.customerId} names no customer`), 'not_found', { field: 'customerId' });
    if (plan.shopId !== customer.shopId) {
      throw invalidField('customerId', `customerId belongs to shop ${customer.shopId} but the plan bills shop ${plan.shopId}`);
    }
    const quantity = dto.quantity ?? 1;
    const amount = periodAmountOrRefuse(plan.amount, quantity, 'quantity');

    const now = this.clock.now();
    const startAt = dto.startAt ? this.boundedStart(dto.startAt, timezone, plan, now) : now;
    const trialEndsAt = plan.trialDays > 0 ? addTrialDays(startAt, timezone, plan.trialDays) : null;
    let status: SubscriptionStatus;
    let billingAnchor: Date | null;
    if (trialEndsAt) {
      // A trial needs no card; the first charge waits for both the trial's end and a ready customer.
      status = 'trialing';
      billingAnchor = trialEndsAt;
    } else if (customer.status === 'ready') {
      status = 'active';
      billingAnchor = startAt;
    } else {
      status = 'incomplete';
      billingAnchor = null;
    }

    const id = reservedId ?? randomUUID();
    return this.subscriptions.transaction(async (em) => {
      // The coupon is redeemed in the transaction that makes the subscription: a refusal makes neither.
      const discount = dto.couponCode ? await this.coupons.redeem(em, dto.couponCode, { subscriptionId: id, customerId: customer.id, plan }, now) : null;
      const subscription = await this.subscriptions.insert(em, {
        id,
        discount,
        customerId: customer.id,
        planId: plan.id,
        quantity,
        status,
        timezone,
        startAt,
        billingAnchor,
        trialEndsAt,
        nextPeriodIndex: 0,
        currentPeriodStart: trialEndsAt ? startAt : null,
        currentPeriodEnd: trialEndsAt,
        nextBillingAt: billingAnchor,
        metadata: dto.metadata ?? {},
        createdAt: now,
        updatedAt: now,
      });
      if (discount) await this.audit.record(em, { subscriptionId: id, type: 'discount_applied', data: discountTerms(discount) }, now);
      await this.lifecycle.created(em, subscription, plan, status, { planId: plan.id, quantity, amount, currency: plan.currency, startAt: startAt.toISOString(), timezone }, now);
      return subscription;
    });
  }

  /**
   * A start at most one billing period in the past (so a new subscription is never charged for a backlog) and at
   * most five years ahead (so a typo cannot park one for millennia).
   */
  private boundedStart(text: string, timezone: string, plan: Pick<Plan, 'interval' | 'intervalCount'>, now: Date): Date {
    const startAt = new Date(text);
    const latest = DateTime.fromJSDate(now).plus({ years: MAX_START_YEARS_AHEAD });
    if (!Number.isFinite(startAt.getTime()) || startAt.getTime() > latest.toMillis()) {
      throw invalidField('startAt', `startAt must be at most ${MAX_START_YEARS_AHEAD} years ahead (no later than ${latest.toUTC().toISO()})`);
    }
    if (periodStart(startAt, timezone, plan.interval, plan.intervalCount, 1) < now) {
      throw invalidField(
        'startAt',
        `startAt must be at most one billing period (${plan.intervalCount} ${plan.interval}) in the past; past periods are never charged retroactively`,
      );
    }
    return startAt;
  }

  /** One short transaction (never across a provider call), for a change another module makes with the lifecycle. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.subscriptions.transaction(work);
  }

  async get(id: string): Promise<Subscription> {
    const subscription = await this.subscriptions.findById(id);
    if (!subscription) throw new NotFoundException(`No subscription ${id}`);
    return subscription;
  }

  /** Several subscriptions in one read (the billing engine's batches); unknown ids are left out. */
  getMany(ids: string[]): Promise<Subscription[]> {
    return this.subscriptions.findByIds(ids);
  }

  /**
   * Whether billing is behind on `s`: its next period has begun and a billing pass would make it now (a subscription
   * whose customer has no usable card waits for one instead). Read in the caller's transaction, `s` locked.
   */
  async billingDue(em: EntityManager, s: Subscription, now: Date): Promise<boolean> {
    if (!s.nextBillingAt || s.nextBillingAt > now) return false;
    return this.subscriptions.isDue(em, s.id, now);
  }

  /** Billable subscriptions whose due period passes cannot bill (the gauge of subscriptions in billing error). */
  countInBillingError(): Promise<number> {
    return this.subscriptions.countInBillingError();
  }

  /** Billable subscriptions due at `now` whose customer has no usable card yet (the pass summary's skippedNotReady). */
  countDueNotReady(now: Date): Promise<number> {
    return this.subscriptions.countDueNotReady(now);
  }

  list(query: ListSubscriptionsQueryDto): Promise<Page<Subscription>> {
    return this.subscriptions.page(query);
  }

  /** How many subscriptions are in each status (for the dashboard). */
  countByStatus(): Promise<Map<string, number>> {
    return this.subscriptions.countByStatus();
  }

  /** The audit trail, newest first, in the order the events were written. */
  async events(id: string, query: ListQueryDto): Promise<Page<SubscriptionEvent>> {
    await this.get(id);
    return this.audit.page(id, query);
  }

  /** `actionId` (cancel, pause, resume): the id the request's Idempotency-Key reserved; a re-run of the key answers the subscription. */
  cancel(id: string, atPeriodEnd: boolean, actionId?: string): Promise<Subscription> {
    return this.lifecycle.cancel(id, atPeriodEnd, actionId);
  }

  pause(id: string, actionId?: string): Promise<Subscription> {
    return this.lifecycle.pause(id, actionId);
  }

  async resume(id: string, actionId?: string): Promise<Subscription> {
    const plan = await this.plans.get((await this.get(id)).planId);
    return this.lifecycle.resume(id, plan, actionId);
  }
}
