import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager, In } from 'typeorm';
import { Page, paginate } from '../common/http/pagination';
import { Customer } from '../customers/customer.entity';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { BILLABLE_STATUSES, Subscription } from './subscription.entity';

/** Which due subscriptions a batch may lock besides lockDue's own rule. */
export interface DueFilter {
  /** Leave out those in a billing backoff (BillingError) that ends after this real time; absent: take them too. */
  backoffEndedBy?: Date;
  /** Leave these out (the pass found them failing already). */
  except?: string[];
  /** Only these. */
  among?: string[];
}

/** Every statement on the `subscriptions` table. */
@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one short transaction (never across a provider call). */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(em: EntityManager, values: DeepPartial<Subscription>): Promise<Subscription> {
    return em.save(em.create(Subscription, values));
  }

  async save(em: EntityManager, subscription: Subscription): Promise<void> {
    await em.save(subscription);
  }

  /** One subscription, locked for the caller's transaction. */
  lock(em: EntityManager, id: string): Promise<Subscription | null> {
    return em.getRepository(Subscription).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Incomplete subscriptions whose customer is ready, locked (SKIP LOCKED: replicas share them). */
  lockIncompleteOfReadyCustomers(em: EntityManager, limit: number): Promise<Subscription[]> {
    return em
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .innerJoin(Customer, 'c', 'c.id = s.customerId')
      .where("s.status = 'incomplete'")
      .andWhere("c.status = 'ready'")
      .limit(limit)
      .setLock('pessimistic_write', undefined, ['s'])
      .setOnLocked('skip_locked')
      .getMany();
  }

  /**
   * Billable subscriptions of ready customers whose next period has begun, locked (SKIP LOCKED), oldest due first.
   * The customer's status is a per-row lookup by primary key, not a join: the planner cannot turn it into a loop
   * over every ready customer, which it chose with stale statistics (a table just loaded, autovacuum behind), at 30-50 ms
   * per batch of a thousand due subscriptions instead of one.
   */
  lockDue(em: EntityManager, now: Date, limit: number, filter: DueFilter = {}): Promise<Subscription[]> {
    const qb = this.due(em, now);
    if (filter.backoffEndedBy) qb.andWhere('(s.billingRetryAt IS NULL OR s.billingRetryAt <= :backoffEndedBy)', { backoffEndedBy: filter.backoffEndedBy });
    if (filter.except?.length) qb.andWhere('s.id NOT IN (:...except)', { except: filter.except });
    if (filter.among) qb.andWhere('s.id IN (:...among)', { among: filter.among.length > 0 ? filter.among : [null] });
    return qb.orderBy('s.nextBillingAt', 'ASC').limit(limit).setLock('pessimistic_write', undefined, ['s']).setOnLocked('skip_locked').getMany();
  }

  /** Whether a billing pass would make a period of this subscription now (lockDue's rule, for one row). */
  isDue(em: EntityManager, id: string, now: Date): Promise<boolean> {
    return this.due(em, now).andWhere('s.id = :id', { id }).getExists();
  }

  /** Billable subscriptions of ready customers whose next period has begun. */
  private due(em: EntityManager, now: Date) {
    return em
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .where('s.nextBillingAt <= :now', { now })
      .andWhere('s.status IN (:...statuses)', { statuses: BILLABLE_STATUSES })
      .andWhere((qb) => `${qb.subQuery().select('c.status').from(Customer, 'c').where('c.id = s.customerId').getQuery()} = 'ready'`);
  }

  /**
   * The period fields and status of a batch of subscriptions, as set in memory, in one statement; a period made clears
   * any billing error.
   */
  async updatePeriods(em: EntityManager, rows: Subscription[], at: Date): Promise<void> {
    await em.query(
      `UPDATE subscriptions s SET next_period_index = u.next_index, current_period_start = u.period_start, current_period_end = u.period_end,
              next_billing_at = u.period_end, status = u.status, billing_error = NULL, billing_retry_at = NULL, updated_at = $6, discount = u.discount
         FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::varchar[], $7::jsonb[]) AS u(id, next_index, period_start, period_end, status, discount)
        WHERE s.id = u.id`,
      [
        rows.map((s) => s.id),
        rows.map((s) => s.nextPeriodIndex),
        rows.map((s) => s.currentPeriodStart),
        rows.map((s) => s.currentPeriodEnd),
        rows.map((s) => s.status),
        at,
        rows.map((s) => (s.discount ? JSON.stringify(s.discount) : null)),
      ],
    );
  }

  /**
   * A plan migration's batch: the plan's subscriptions after `afterSeq` up to `cutoffSeq` (those made before the
   * migration), in creation order, locked for the caller's transaction. Not SKIP LOCKED: the walk must see every one,
   * so it waits for a billing pass or a change holding one.
   */
  lockPlanBatch(em: EntityManager, planId: string, afterSeq: number, cutoffSeq: number, limit: number): Promise<Subscription[]> {
    return em
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .where('s.planId = :planId AND s.seq > :afterSeq AND s.seq <= :cutoffSeq', { planId, afterSeq, cutoffSeq })
      .orderBy('s.seq', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write', undefined, ['s'])
      .getMany();
  }

  /** The newest subscription's place in creation order (0 with none): a plan migration moves those up to it. */
  async newestSeq(em: EntityManager): Promise<number> {
    const [row] = await em.query(`SELECT COALESCE(max(seq), 0)::bigint AS seq FROM subscriptions`);
    return Number(row.seq);
  }

  /** The pending changes of a batch, as set in memory, in one statement. */
  async updatePendingChanges(em: EntityManager, rows: Subscription[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `UPDATE subscriptions s SET pending_change = u.pending_change, updated_at = $3
         FROM unnest($1::uuid[], $2::jsonb[]) AS u(id, pending_change)
        WHERE s.id = u.id`,
      [rows.map((s) => s.id), rows.map((s) => JSON.stringify(s.pendingChange)), at],
    );
  }

  /** The next period to bill, as set in memory (after skipped periods). */
  async updateSchedule(em: EntityManager, s: Subscription): Promise<void> {
    await em.update(Subscription, { id: s.id }, { nextPeriodIndex: s.nextPeriodIndex, nextBillingAt: s.nextBillingAt, updatedAt: s.updatedAt });
  }

  findById(id: string): Promise<Subscription | null> {
    return this.dataSource.getRepository(Subscription).findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<Subscription[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.dataSource.getRepository(Subscription).findBy({ id: In(ids) });
  }

  /** How many subscriptions are in each status (statuses with none are absent). */
  async countByStatus(): Promise<Map<string, number>> {
    const rows: { status: string; n: number }[] = await this.dataSource.query(`SELECT status, count(*)::int AS n FROM subscriptions GROUP BY status`);
    return new Map(rows.map((r) => [r.status, r.n]));
  }

  /** Billable subscriptions whose due period passes could not bill (see BillingError). */
  async countInBillingError(): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM subscriptions WHERE billing_error IS NOT NULL AND status IN ('trialing', 'active', 'past_due')`);
    return row.n as number;
  }

  /** Billable subscriptions due at `now` whose customer has no usable card yet. */
  async countDueNotReady(now: Date): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM subscriptions s JOIN customers c ON c.id = s.customer_id
        WHERE s.next_billing_at <= $1 AND s.status IN ('trialing', 'active', 'past_due') AND c.status <> 'ready'`,
      [now],
    );
    return row.n as number;
  }

  page(query: ListSubscriptionsQueryDto): Promise<Page<Subscription>> {
    const qb = this.dataSource.getRepository(Subscription).createQueryBuilder('s');
    if (query.status) qb.andWhere('s.status = :status', { status: query.status });
    if (query.customerId) qb.andWhere('s.customerId = :customerId', { customerId: query.customerId });
    if (query.planId) qb.andWhere('s.planId = :planId', { planId: query.planId });
    return paginate(qb, query);
  }
}
