import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DateTime } from 'luxon';
import { DataSource, In } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { DEFAULT_PAGE_SIZE, Page, paginate } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Customer } from '../customers/customer.entity';
import type { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { addTrialDays, isValidTimeZone, periodStart } from './billing-calendar';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';

const MAX_START_YEARS_AHEAD = 5;

@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly plans: PlansService,
    private readonly clock: Clock,
    private readonly lifecycle: SubscriptionLifecycleService,
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
        createdAt: now,
        updatedAt: now,
      });
      await em.save(subscription);
      await this.lifecycle.created(em, subscription, status, { planId: plan.id, amount: plan.amount, currency: plan.currency, startAt: startAt.toISOString(), timezone }, now);
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
      throw new BadRequestException([`startAt must be at most ${MAX_START_YEARS_AHEAD} years ahead (no later than ${latest.toUTC().toISO()})`]);
    }
    if (periodStart(startAt, timezone, plan.interval, plan.intervalCount, 1) < now) {
      throw new BadRequestException([
        `startAt must be at most one billing period (${plan.intervalCount} ${plan.interval}) in the past; past periods are never charged retroactively`,
      ]);
    }
    return startAt;
  }

  async get(id: string): Promise<Subscription> {
    const subscription = await this.dataSource.getRepository(Subscription).findOneBy({ id });
    if (!subscription) throw new NotFoundException(`No subscription ${id}`);
    return subscription;
  }

  /** Several subscriptions in one read (the billing engine's batches); unknown ids are left out. */
  getMany(ids: string[]): Promise<Subscription[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.dataSource.getRepository(Subscription).findBy({ id: In(ids) });
  }

  /** Billable subscriptions due at `now` whose customer has no usable card yet (the pass summary's skippedNotReady). */
  async countDueNotReady(now: Date): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM subscriptions s JOIN customers c ON c.id = s.customer_id
        WHERE s.next_billing_at <= $1 AND s.status IN ('trialing', 'active', 'past_due') AND c.status <> 'ready'`,
      [now],
    );
    return row.n as number;
  }

  list(query: ListSubscriptionsQueryDto): Promise<Page<Subscription>> {
    const qb = this.dataSource.getRepository(Subscription).createQueryBuilder('s');
    if (query.status) qb.andWhere('s.status = :status', { status: query.status });
    if (query.customerId) qb.andWhere('s.customerId = :customerId', { customerId: query.customerId });
    if (query.planId) qb.andWhere('s.planId = :planId', { planId: query.planId });
    return paginate(qb, query);
  }

  /** The audit trail, newest first, in the order the events were written. */
  async events(id: string, query: ListQueryDto): Promise<Page<SubscriptionEvent>> {
    await this.get(id);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const qb = this.dataSource.getRepository(SubscriptionEvent).createQueryBuilder('e').where('e.subscriptionId = :id', { id });
    if (query.createdAfter) qb.andWhere('e.createdAt >= :createdAfter', { createdAfter: new Date(query.createdAfter) });
    if (query.createdBefore) qb.andWhere('e.createdAt < :createdBefore', { createdBefore: new Date(query.createdBefore) });
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

  cancel(id: string, atPeriodEnd: boolean): Promise<Subscription> {
    return this.lifecycle.cancel(id, atPeriodEnd);
  }

  pause(id: string): Promise<Subscription> {
    return this.lifecycle.pause(id);
  }

  async resume(id: string): Promise<Subscription> {
    const plan = await this.plans.get((await this.get(id)).planId);
    return this.lifecycle.resume(id, plan);
  }
}
