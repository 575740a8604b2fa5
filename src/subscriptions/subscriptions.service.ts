import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { Charge } from '../billing/charge.entity';
import { Clock } from '../common/clock/clock';
import { DEFAULT_PAGE_SIZE, Page, paginate } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Customer } from '../customers/customer.entity';
import { PlansService } from '../plans/plans.service';
import { addTrialDays, firstPeriodIndexAtOrAfter, isValidTimeZone, periodStart } from './billing-calendar';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { recordSubscriptionEvent } from './subscription-audit';
import { Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';

/** Charges that can be dropped when a subscription is canceled: no payment is in flight at the provider. */
const CANCELABLE_CHARGE_STATUSES = ['pending', 'retrying', 'failed'] as const;

@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly plans: PlansService,
    private readonly clock: Clock,
  ) {}

  async create(dto: CreateSubscriptionDto): Promise<Subscription> {
    const timezone = dto.timezone ?? 'UTC';
    if (!isValidTimeZone(timezone)) {
      throw new BadRequestException([`timezone must be an IANA time zone such as Europe/Moscow or UTC, not "${timezone}"`]);
    }
    const plan = await this.plans.getForSubscription(dto.planId);
    const customer = await this.dataSource.getRepository(Customer).findOneBy({ id: dto.customerId });
    if (!customer) throw new NotFoundException(`customerId ${dto.customerId} names no customer`);
    if (plan.shopId !== customer.shopId) {
      throw new BadRequestException([`customerId belongs to shop ${customer.shopId} but the plan bills shop ${plan.shopId}`]);
    }

    const now = this.clock.now();
    const startAt = dto.startAt ? new Date(dto.startAt) : now;
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

    return this.dataSource.transaction(async (em) => {
      const subscription = em.create(Subscription, {
        customerId: customer.id,
        planId: plan.id,
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
      });
      await em.save(subscription);
      await recordSubscriptionEvent(em, subscription, 'created', now, {
        to: status,
        data: { planId: plan.id, amount: plan.amount, currency: plan.currency, startAt: startAt.toISOString(), timezone },
      });
      return subscription;
    });
  }

  async get(id: string): Promise<Subscription> {
    const subscription = await this.dataSource.getRepository(Subscription).findOneBy({ id });
    if (!subscription) throw new NotFoundException(`No subscription ${id}`);
    return subscription;
  }

  list(query: ListSubscriptionsQueryDto): Promise<Page<Subscription>> {
    const qb = this.dataSource.getRepository(Subscription).createQueryBuilder('s');
    if (query.status) qb.andWhere('s.status = :status', { status: query.status });
    if (query.customerId) qb.andWhere('s.customerId = :customerId', { customerId: query.customerId });
    return paginate(qb, query);
  }

  /** The audit trail, newest first, in the order the events were written. */
  async events(id: string, query: ListQueryDto): Promise<Page<SubscriptionEvent>> {
    await this.get(id);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const qb = this.dataSource.getRepository(SubscriptionEvent).createQueryBuilder('e').where('e.subscriptionId = :id', { id });
    if (query.cursor) {
      const before = Number(Buffer.from(query.cursor, 'base64url').toString());
      if (!Number.isSafeInteger(before)) throw new BadRequestException(['cursor must be a nextCursor value returned by this list']);
      qb.andWhere('e.seq < :before', { before });
    }
    const rows = await qb.orderBy('e.seq', 'DESC').limit(limit + 1).getMany();
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? Buffer.from(String(last.seq)).toString('base64url') : null };
  }

  async cancel(id: string, atPeriodEnd: boolean): Promise<Subscription> {
    return this.change(id, async (em, s, now) => {
      if (s.status === 'canceled') throw new ConflictException('The subscription is already canceled');
      // Without a running paid period (incomplete, paused, unpaid) there is no period end to wait for.
      const hasRunningPeriod = ['trialing', 'active', 'past_due'].includes(s.status);
      if (atPeriodEnd && hasRunningPeriod) {
        if (s.cancelAtPeriodEnd) return;
        s.cancelAtPeriodEnd = true;
        await recordSubscriptionEvent(em, s, 'cancel_scheduled', now, { data: { at: s.nextBillingAt?.toISOString() ?? null } });
        return;
      }
      await this.cancelNow(em, s, now, 'canceled');
    });
  }

  async pause(id: string): Promise<Subscription> {
    return this.change(id, async (em, s, now) => {
      if (!['incomplete', 'trialing', 'active', 'past_due'].includes(s.status)) {
        throw new ConflictException(`A ${s.status} subscription cannot be paused`);
      }
      const from = s.status;
      s.status = 'paused';
      s.pausedAt = now;
      s.nextBillingAt = null;
      await recordSubscriptionEvent(em, s, 'paused', now, { from, to: 'paused' });
    });
  }

  async resume(id: string): Promise<Subscription> {
    // Read outside the transaction: the plan never changes its schedule, and no other connection is used inside one.
    const plan = await this.plans.get((await this.get(id)).planId);
    return this.change(id, async (em, s, now) => {
      if (s.status !== 'paused') throw new ConflictException(`Only a paused subscription can be resumed; this one is ${s.status}`);
      if (!s.billingAnchor) {
        s.status = 'incomplete';
      } else {
        // Periods that fell inside the pause are skipped, not billed; billing goes on from the next
        // boundary on the original schedule.
        const index = Math.max(s.nextPeriodIndex, firstPeriodIndexAtOrAfter(s.billingAnchor, s.timezone, plan.interval, plan.intervalCount, now));
        s.nextPeriodIndex = index;
        s.nextBillingAt = periodStart(s.billingAnchor, s.timezone, plan.interval, plan.intervalCount, index);
        s.status = s.trialEndsAt && s.trialEndsAt > now ? 'trialing' : 'active';
      }
      s.pausedAt = null;
      await recordSubscriptionEvent(em, s, 'resumed', now, { from: 'paused', to: s.status, data: { nextBillingAt: s.nextBillingAt?.toISOString() ?? null } });
    });
  }

  /** Ends the subscription now and drops its charges that have no payment in flight (but `keepChargeId`). */
  async cancelNow(em: EntityManager, s: Subscription, now: Date, type: string, keepChargeId?: string): Promise<void> {
    const from = s.status;
    s.status = 'canceled';
    s.canceledAt = now;
    s.nextBillingAt = null;
    s.cancelAtPeriodEnd = false;
    await em.update(
      Charge,
      { subscriptionId: s.id, status: In([...CANCELABLE_CHARGE_STATUSES]), ...(keepChargeId ? { id: Not(keepChargeId) } : {}) },
      { status: 'canceled', step: 'done', nextAttemptAt: null, leaseOwner: null },
    );
    await recordSubscriptionEvent(em, s, type, now, { from, to: 'canceled' });
  }

  /** Loads, locks and saves one subscription around a change, in one short transaction. */
  private async change(id: string, apply: (em: EntityManager, s: Subscription, now: Date) => Promise<void>): Promise<Subscription> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (em) => {
      const s = await em.getRepository(Subscription).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!s) throw new NotFoundException(`No subscription ${id}`);
      await apply(em, s, now);
      await em.save(s);
      return s;
    });
  }
}
