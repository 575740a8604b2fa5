import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Subscription } from './subscription.entity';
import { NoticeKind } from './subscription-notice.entity';

/** What each kind warns about: the column of the instant, and the subscriptions it is for. */
const KINDS: Record<NoticeKind, { at: string; where: string }> = {
  // A subscription that will renew: not trialing (trial_ending covers that), paused, canceled or ending at period end.
  renewal_upcoming: { at: 's.next_billing_at', where: "s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end" },
  trial_ending: { at: 's.trial_ends_at', where: "s.status = 'trialing' AND NOT s.cancel_at_period_end" },
};

/** The notices table (owned here): which notices were sent, claimed once each by a unique key. */
@Injectable()
export class SubscriptionNoticesRepository {
  /**
   * Claims, in the caller's transaction, up to `limit` notices of `kind` due now: subscriptions whose instant lies in
   * (now, now + lead] and that have no notice for it yet. Answers the subscription ids claimed; a notice another
   * replica claimed first (a concurrent insert of the same key) is skipped.
   */
  async claimDue(em: EntityManager, kind: NoticeKind, now: Date, leadMs: number, limit: number): Promise<string[]> {
    const { at, where } = KINDS[kind];
    const rows: { subscription_id: string }[] = await em.query(
      `INSERT INTO subscription_notices (subscription_id, kind, due_at, sent_at)
       SELECT s.id, $1::varchar, ${at}, $2::timestamptz FROM subscriptions s
        WHERE ${where} AND ${at} > $2::timestamptz AND ${at} <= $2::timestamptz + make_interval(secs => $3::double precision / 1000)
          AND NOT EXISTS (SELECT 1 FROM subscription_notices n WHERE n.subscription_id = s.id AND n.kind = $1::varchar AND n.due_at = ${at})
        ORDER BY ${at}
        LIMIT $4::int
       ON CONFLICT DO NOTHING
       RETURNING subscription_id`,
      [kind, now, leadMs, limit],
    );
    return rows.map((r) => r.subscription_id);
  }

  /** The subscriptions of claimed notices, read in the claiming transaction. */
  subscriptions(em: EntityManager, ids: string[]): Promise<Subscription[]> {
    return ids.length === 0 ? Promise.resolve([]) : em.getRepository(Subscription).findBy({ id: In(ids) });
  }
}
