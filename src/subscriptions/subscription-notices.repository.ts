import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { SqlParams } from '../database/sql-statement';
import type { NoticeHold } from './notice-hold';
import { Subscription } from './subscription.entity';
import { NoticeKind } from './subscription-notice.entity';

/** What each kind warns about: the column of the instant, and the subscriptions it is for. */
const KINDS: Record<NoticeKind, { at: string; where: string }> = {
  // A subscription that will renew: not trialing (trial_ending covers that), paused, canceled or ending at period end.
  renewal_upcoming: { at: 's.next_billing_at', where: "s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end" },
  trial_ending: { at: 's.trial_ends_at', where: "s.status = 'trialing' AND NOT s.cancel_at_period_end" },
  // The first renewal at full price: its coupon ended with the period charge before it (the discount_ended event names
  // that renewal), and no other coupon was applied since.
  discount_ending: {
    at: 's.next_billing_at',
    where:
      "s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end AND s.discount IS NULL AND EXISTS (SELECT 1 FROM subscription_events e " +
      "WHERE e.subscription_id = s.id AND e.type = 'discount_ended' AND (e.data->>'fullPriceAt')::timestamptz = s.next_billing_at)",
  },
};

/** Where a walk over the due notices of a kind stands: the last (instant, subscription) it looked at. */
export interface NoticeCursor {
  /** The instant as PostgreSQL wrote it (text keeps its microseconds, so the walk neither repeats nor skips a row). */
  at: string;
  id: string;
}

/** One batch of the walk: the notices claimed, those held back, and where the next batch starts (none: walk over). */
export interface NoticeBatch {
  ids: string[];
  held: number;
  next: NoticeCursor | null;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** The notices table (owned here): which notices were sent, claimed once each by a unique key. */
@Injectable()
export class SubscriptionNoticesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction: a batch's claims, reads and events commit together. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Claims, in the caller's transaction, the notices of `kind` due now among the next `limit` subscriptions after
   * `after`: those whose instant lies in (now, now + lead] and that have no notice for it yet. A subscription `holds`
   * names is counted as held and left for a later decision; one being changed right now (row locked) is left for the
   * next pass. The others are locked (FOR SHARE) and checked again on their newest row, so a subscription another
   * transaction canceled, paused or set to end since the statement began gets none, and none can change until the
   * caller's transaction records the notice. A notice another replica claimed first (same key) is skipped.
   */
  async claimDue(em: EntityManager, kind: NoticeKind, now: Date, leadMs: number, limit: number, holds: NoticeHold[], after: NoticeCursor | null): Promise<NoticeBatch> {
    const { at, where } = KINDS[kind];
    const p = new SqlParams();
    const [k, t, lead, n] = [p.bind(kind), p.bind(now), p.bind(leadMs), p.bind(limit)];
    const [afterAt, afterId] = [p.bind(after?.at ?? now), p.bind(after?.id ?? FIRST_ID)];
    const due = `${where} AND ${at} > ${t}::timestamptz AND ${at} <= ${t}::timestamptz + make_interval(secs => ${lead}::double precision / 1000)`;
    const held = holds.length === 0 ? 'false' : holds.map((hold) => `(${hold(p, 's.id', now)})`).join(' OR ');
    const rows: { ids: string[] | null; held: number; last_at: string | null; last_id: string | null; scanned: number }[] = await em.query(
      `WITH due AS (
         SELECT s.id, ${at} AS at, ${held} AS held FROM subscriptions s
          WHERE ${due} AND ${at} >= ${afterAt}::timestamptz AND (${at}, s.id) > (${afterAt}::timestamptz, ${afterId}::uuid)
            AND NOT EXISTS (SELECT 1 FROM subscription_notices n WHERE n.subscription_id = s.id AND n.kind = ${k}::varchar AND n.due_at = ${at})
          ORDER BY ${at}, s.id
          LIMIT ${n}::int
       ),
       claimed AS (
         INSERT INTO subscription_notices (subscription_id, kind, due_at, sent_at)
         SELECT s.id, ${k}::varchar, ${at}, ${t}::timestamptz FROM due d JOIN subscriptions s ON s.id = d.id
          WHERE NOT d.held AND ${due}
            FOR SHARE OF s SKIP LOCKED
         ON CONFLICT DO NOTHING
         RETURNING subscription_id
       ),
       last AS (SELECT at, id FROM due ORDER BY at DESC, id DESC LIMIT 1)
       SELECT (SELECT array_agg(subscription_id) FROM claimed) AS ids, (SELECT count(*) FROM due WHERE held)::int AS held,
              (SELECT count(*) FROM due)::int AS scanned, (SELECT at::text FROM last) AS last_at, (SELECT id FROM last) AS last_id`,
      p.values,
    );
    const [row] = rows;
    const next = row.scanned === limit && row.last_at && row.last_id ? { at: row.last_at, id: row.last_id } : null;
    return { ids: row.ids ?? [], held: row.held, next };
  }

  /** The subscriptions of claimed notices, read in the claiming transaction (their rows locked by the claim). */
  subscriptions(em: EntityManager, ids: string[]): Promise<Subscription[]> {
    return ids.length === 0 ? Promise.resolve([]) : em.getRepository(Subscription).findBy({ id: In(ids) });
  }
}
