import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { checkColumnNames, SqlFragment, SqlParams } from '../database/sql-statement';
import { ActorContext } from '../common/auth/actor-context';
import { invalidField } from '../common/errors/coded-error';
import { DEFAULT_PAGE_SIZE, Page } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { SubscriptionStatus } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';

/** One audit event to append. */
export interface AuditEvent {
  /** The id an Idempotency-Key reserved for the action this event records; a fresh one when absent. */
  id?: string;
  subscriptionId: string;
  type: string;
  from?: SubscriptionStatus | null;
  to?: SubscriptionStatus | null;
  data?: Record<string, unknown>;
}

/** The append-only audit trail of subscriptions: every statement on `subscription_events`. */
@Injectable()
export class SubscriptionEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends one event in the caller's transaction, so a change and its record commit together. */
  async record(em: EntityManager, event: AuditEvent, occurredAt: Date): Promise<void> {
    await this.recordMany(em, [event], occurredAt);
  }

  /**
   * Appends several events in one statement, in the given order, in the caller's transaction; `also` adds CTEs
   * (binding their own parameters) to that same statement, e.g. the merchant events.
   */
  async recordMany(em: EntityManager, events: AuditEvent[], occurredAt: Date, also?: SqlFragment): Promise<void> {
    if (events.length === 0 && !also) return;
    const p = new SqlParams();
    const [eventIds, ids, types, from, to, data, at, actor] = [
      p.bind(events.map((e) => e.id ?? null)),
      p.bind(events.map((e) => e.subscriptionId)),
      p.bind(events.map((e) => e.type)),
      p.bind(events.map((e) => e.from ?? null)),
      p.bind(events.map((e) => e.to ?? null)),
      p.bind(events.map((e) => JSON.stringify(e.data ?? {}))),
      p.bind(occurredAt),
      p.bind(JSON.stringify(ActorContext.current())),
    ];
    await em.query(
      `WITH subscription_audit AS (INSERT INTO subscription_events (id, subscription_id, type, from_status, to_status, data, occurred_at, created_at, actor)
       SELECT COALESCE(e.id, gen_random_uuid()), e.subscription_id, e.type, e.from_status, e.to_status, e.data, ${at}, ${at}, ${actor}::jsonb
         FROM unnest(${eventIds}::uuid[], ${ids}::uuid[], ${types}::varchar[], ${from}::varchar[], ${to}::varchar[], ${data}::jsonb[]) WITH ORDINALITY AS e(id, subscription_id, type, from_status, to_status, data, n)
        ORDER BY e.n)${also ? `,\n${also(p)}` : ''}
       SELECT 1`,
      p.values,
    );
  }

  /**
   * The `charge_succeeded` audit event of every row of the CTE `source` (a group commit's settled charges), for a
   * statement of the billing hot path: the source yields `subscription_id`, and its columns `columns.data` (jsonb)
   * and `columns.at` (the settling time). The work engine settles them: the actor is the column's default, `system`.
   */
  chargeSucceededRowsSql(source: string, columns: { data: string; at: string }): SqlFragment {
    checkColumnNames(columns.data, columns.at);
    return () => `subscription_audit AS (INSERT INTO subscription_events (subscription_id, type, data, occurred_at, created_at)
             SELECT subscription_id, 'charge_succeeded', ${columns.data}, ${columns.at}, ${columns.at} FROM ${source})`;
  }

  /** The event of one subscription with this id, or null. */
  findOfSubscription(subscriptionId: string, id: string): Promise<SubscriptionEvent | null> {
    return this.dataSource.getRepository(SubscriptionEvent).findOneBy({ id, subscriptionId });
  }

  /** How many `changed` events the subscription's trail holds, read in the caller's transaction. */
  async countChanges(em: EntityManager, subscriptionId: string): Promise<number> {
    const [row] = await em.query(`SELECT count(*)::int AS n FROM subscription_events WHERE subscription_id = $1 AND type = 'changed'`, [subscriptionId]);
    return row.n as number;
  }

  /** The trail of one subscription, newest first, in the order the events were written. */
  async page(subscriptionId: string, query: ListQueryDto): Promise<Page<SubscriptionEvent>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const qb = this.dataSource.getRepository(SubscriptionEvent).createQueryBuilder('e').where('e.subscriptionId = :subscriptionId', { subscriptionId });
    if (query.createdAfter) qb.andWhere('e.createdAt >= :createdAfter', { createdAfter: new Date(query.createdAfter) });
    if (query.createdBefore) qb.andWhere('e.createdAt < :createdBefore', { createdBefore: new Date(query.createdBefore) });
    if (query.cursor) {
      const before = Number(Buffer.from(query.cursor, 'base64url').toString());
      if (!Number.isSafeInteger(before)) throw invalidField('cursor', 'cursor must be a nextCursor value returned by this list');
      qb.andWhere('e.seq < :before', { before });
    }
    const rows = await qb.orderBy('e.seq', 'DESC').limit(limit + 1).getMany();
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? Buffer.from(String(last.seq)).toString('base64url') : null };
  }
}
