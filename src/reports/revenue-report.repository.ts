import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One row of figures for interval k (boundaries k-1 .. k, 1-based) and a currency, as the database sums them. */
export interface RevenueRow {
  k: number;
  currency: string;
  mrrAtStart: number;
  mrr: number;
  new: number;
  expansion: number;
  contraction: number;
  churned: number;
  reactivated: number;
  voluntary: number;
  involuntary: number;
  renewalVolume: number;
  failedVolume: number;
  recoveredVolume: number;
}

/**
 * Monthly-normalised value of a subscription, in minor units, rounded half away from zero per subscription: a
 * year's amount / 12, a week's × 52 / 12, a day's × 365 / 12, each divided by the plan's interval count.
 */
const MONTHLY_VALUE_SQL = `round(p.amount::numeric * CASE p.interval WHEN 'month' THEN 1 WHEN 'year' THEN 1 WHEN 'week' THEN 52 ELSE 365 END
  / (CASE p.interval WHEN 'month' THEN 1 ELSE 12 END * p.interval_count))::bigint`;

/**
 * Read-only figures over the audit trail (subscription_events), subscriptions, plans, charges and attempts. It owns no
 * table and writes nothing: a report reads what the owning modules recorded.
 */
@Injectable()
export class RevenueReportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async figures(boundaries: Date[], currency: string | null): Promise<RevenueRow[]> {
    const params = [boundaries, currency];
    const [mrr, churn, volume] = await Promise.all([
      this.dataSource.query(
        `WITH b AS (SELECT at, k FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(at, k)),
              subs AS (SELECT s.id, p.currency, ${MONTHLY_VALUE_SQL} AS value
                         FROM subscriptions s JOIN plans p ON p.id = s.plan_id
                        WHERE ($2::text IS NULL OR p.currency = $2::text)),
              -- Each subscription's last recorded status before each boundary, and whether it was ever counted before it:
              -- one pass over the audit trail per boundary rather than a lookup per subscription.
              st AS (
                SELECT b.k, e.subscription_id AS id,
                       (array_agg(e.to_status ORDER BY e.occurred_at DESC, e.seq DESC))[1] AS status,
                       bool_or(e.to_status IN ('active', 'past_due')) AS ever
                  FROM b JOIN subscription_events e ON e.occurred_at < b.at AND e.to_status IS NOT NULL
                 GROUP BY b.k, e.subscription_id),
              c AS (
                SELECT b.k, s.id, s.currency,
                       CASE WHEN st.status IN ('active', 'past_due') THEN s.value ELSE 0 END AS v,
                       coalesce(st.ever, false) AS ever
                  FROM b CROSS JOIN subs s LEFT JOIN st ON st.k = b.k AND st.id = s.id)
         SELECT e.k, e.currency,
                sum(s.v)::bigint AS "mrrAtStart", sum(e.v)::bigint AS mrr,
                sum(CASE WHEN s.v = 0 AND e.v > 0 AND NOT s.ever THEN e.v ELSE 0 END)::bigint AS new,
                sum(CASE WHEN s.v > 0 AND e.v > s.v THEN e.v - s.v ELSE 0 END)::bigint AS expansion,
                sum(CASE WHEN e.v > 0 AND s.v > e.v THEN s.v - e.v ELSE 0 END)::bigint AS contraction,
                sum(CASE WHEN s.v > 0 AND e.v = 0 THEN s.v ELSE 0 END)::bigint AS churned,
                sum(CASE WHEN s.v = 0 AND e.v > 0 AND s.ever THEN e.v ELSE 0 END)::bigint AS reactivated
           FROM c s JOIN c e ON e.id = s.id AND e.k = s.k + 1
          GROUP BY e.k, e.currency`,
        params,
      ),
      this.dataSource.query(
        `WITH b AS (SELECT at, k FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(at, k))
         SELECT b2.k, p.currency,
                count(DISTINCT e.subscription_id) FILTER (WHERE e.to_status = 'canceled' AND e.type <> 'canceled_unpaid' AND e.from_status IN ('active', 'past_due'))::int AS voluntary,
                count(DISTINCT e.subscription_id) FILTER (WHERE e.type = 'canceled_unpaid' OR e.to_status = 'unpaid')::int AS involuntary
           FROM b JOIN b b2 ON b2.k = b.k + 1
           JOIN subscription_events e ON e.occurred_at >= b.at AND e.occurred_at < b2.at
           JOIN subscriptions s ON s.id = e.subscription_id JOIN plans p ON p.id = s.plan_id
          WHERE ($2::text IS NULL OR p.currency = $2::text) AND e.to_status IN ('canceled', 'unpaid')
          GROUP BY b2.k, p.currency`,
        params,
      ),
      this.dataSource.query(
        `WITH b AS (SELECT at, k FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(at, k))
         SELECT b2.k, ch.currency,
                sum(ch.amount)::bigint AS "renewalVolume",
                coalesce(sum(ch.amount) FILTER (WHERE a.status = 'declined'), 0)::bigint AS "failedVolume",
                coalesce(sum(ch.amount) FILTER (WHERE a.status = 'declined' AND ch.status = 'succeeded'), 0)::bigint AS "recoveredVolume"
           FROM b JOIN b b2 ON b2.k = b.k + 1
           JOIN charge_attempts a ON a.number = 1 AND a.attempted_at >= b.at AND a.attempted_at < b2.at
           JOIN charges ch ON ch.id = a.charge_id
          WHERE ($2::text IS NULL OR ch.currency = $2::text)
          GROUP BY b2.k, ch.currency`,
        params,
      ),
    ]);
    return merge(mrr, churn, volume);
  }
}

type Raw = Record<string, string | number>;

/** Rows of the three reads joined on (k, currency); a figure absent from a read is zero. */
function merge(...reads: Raw[][]): RevenueRow[] {
  const rows = new Map<string, RevenueRow>();
  for (const read of reads) {
    for (const raw of read) {
      const key = `${raw.k} ${raw.currency}`;
      const row = rows.get(key) ?? ({ k: Number(raw.k), currency: String(raw.currency) } as RevenueRow);
      for (const [field, value] of Object.entries(raw)) if (field !== 'k' && field !== 'currency') (row as unknown as Record<string, number>)[field] = Number(value);
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}
