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
  /** Recovered volume by what recovered it (`recovered_by`). */
  recoveredRetry: number;
  recoveredCardUpdate: number;
  recoveredManualRetry: number;
  recoveredBalance: number;
  /** Charges whose first attempt was declined, and of them the ones paid since, by dunning group. */
  failedSmart: number;
  recoveredSmart: number;
  failedFixed: number;
  recoveredFixed: number;
  failedHoldout: number;
  recoveredHoldout: number;
  refunds: number;
  refundCount: number;
}

/**
 * Monthly-normalised value of a subscription (plan `p`, quantity `t.quantity`, the coupon's terms `d.terms` in force),
 * in minor units, rounded half away from zero per subscription: amount × quantity less the discount (a percentage
 * rounded half away from zero, an amount at most the period's, as billing takes them), a year's / 12, a week's × 52 /
 * 12, a day's × 365 / 12, each divided by the plan's interval count. MRR is net of discounts.
 */
const PERIOD_NET_SQL = `(p.amount::numeric * t.quantity - CASE
    WHEN d.terms->>'percentOff' IS NOT NULL THEN round(p.amount::numeric * t.quantity * (d.terms->>'percentOff')::numeric / 100)
    WHEN d.terms->>'amountOff' IS NOT NULL THEN least((d.terms->>'amountOff')::numeric, p.amount::numeric * t.quantity)
    ELSE 0 END)`;
const MONTHLY_VALUE_SQL = `round(${PERIOD_NET_SQL} * CASE p.interval WHEN 'month' THEN 1 WHEN 'year' THEN 1 WHEN 'week' THEN 52 ELSE 365 END
  / (CASE p.interval WHEN 'month' THEN 1 ELSE 12 END * p.interval_count))::bigint`;

/**
 * MRR at the first boundary, and the movements of each interval, in one pass over the audit trail whatever the number
 * of boundaries. Each status event, with the time of the subscription's next one, is the status at every boundary in
 * (occurred_at, next]; each changed event likewise gives the terms (its `to`) over (occurred_at, next], the first one
 * its `from` before it. A subscription with no status or changed event in [start, end) of an interval has the same
 * value at both ends and moves nothing, so only those "touched" are valued at both ends; MRR at each later boundary is
 * the first one's plus the movements since (RevenueReportRepository.figures), which is exact: mrr = mrrAtStart +
 * new + reactivated + expansion − contraction − churned holds per subscription. Rows: k = 1 carries `mrr` at the
 * first boundary, k > 1 the movements of interval k.
 */
const MRR_SQL = `
  WITH b AS (SELECT at, k, lag(at) OVER (ORDER BY k) AS prev_at FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(at, k)),
       st AS (
         SELECT e.subscription_id AS id, e.to_status AS status, e.occurred_at AS since, lead(e.occurred_at) OVER w AS until
           FROM subscription_events e
          WHERE e.to_status IS NOT NULL AND e.occurred_at < ($1::timestamptz[])[cardinality($1::timestamptz[])]
         WINDOW w AS (PARTITION BY e.subscription_id ORDER BY e.occurred_at, e.seq)),
       ch AS (
         SELECT e.subscription_id AS id, e.occurred_at AS since, lead(e.occurred_at) OVER w AS until, e.data->'to' AS terms,
                e.data->'from' AS before, row_number() OVER w AS n
           FROM subscription_events e WHERE e.type = 'changed'
         WINDOW w AS (PARTITION BY e.subscription_id ORDER BY e.occurred_at, e.seq)),
       -- The coupon in force over (since, until]: a discount_applied event's terms, none after a removal or its end.
       dc AS (
         SELECT e.subscription_id AS id, e.occurred_at AS since, lead(e.occurred_at) OVER w AS until,
                CASE WHEN e.type = 'discount_applied' THEN e.data END AS terms
           FROM subscription_events e WHERE e.type IN ('discount_applied', 'discount_removed', 'discount_ended')
         WINDOW w AS (PARTITION BY e.subscription_id ORDER BY e.occurred_at, e.seq)),
       subs AS (
         SELECT s.id, s.plan_id, s.quantity, p.currency FROM subscriptions s JOIN plans p ON p.id = s.plan_id
          WHERE ($2::text IS NULL OR p.currency = $2::text)),
       touched AS (
         SELECT width_bucket(since, $1::timestamptz[]) + 1 AS k, id FROM st WHERE since >= ($1::timestamptz[])[1]
         UNION
         SELECT width_bucket(since, $1::timestamptz[]) + 1, id FROM ch
          WHERE since >= ($1::timestamptz[])[1] AND since < ($1::timestamptz[])[cardinality($1::timestamptz[])]
         UNION
         SELECT width_bucket(since, $1::timestamptz[]) + 1, id FROM dc
          WHERE since >= ($1::timestamptz[])[1] AND since < ($1::timestamptz[])[cardinality($1::timestamptz[])]),
       -- The (boundary, subscription) pairs counted there that need a value: everyone counted at the first boundary,
       -- and the touched ones counted at either end of their interval.
       counted AS (
         SELECT 1 AS k, st.id FROM st
          WHERE st.since < ($1::timestamptz[])[1] AND (st.until IS NULL OR st.until >= ($1::timestamptz[])[1]) AND st.status IN ('active', 'past_due')
         UNION
         SELECT pt.k, pt.id FROM (SELECT k - 1 AS k, id FROM touched UNION SELECT k, id FROM touched) pt JOIN b ON b.k = pt.k
           JOIN st ON st.id = pt.id AND b.at > st.since AND (st.until IS NULL OR b.at <= st.until) AND st.status IN ('active', 'past_due')),
       v AS (
         SELECT c.k, c.id, s.currency, ${MONTHLY_VALUE_SQL} AS v
           FROM counted c JOIN b ON b.k = c.k JOIN subs s ON s.id = c.id
           LEFT JOIN ch ON ch.id = c.id AND b.at > ch.since AND (ch.until IS NULL OR b.at <= ch.until)
           LEFT JOIN ch f ON f.id = c.id AND f.n = 1
           LEFT JOIN dc d ON d.id = c.id AND b.at > d.since AND (d.until IS NULL OR b.at <= d.until)
          CROSS JOIN LATERAL (SELECT coalesce(ch.terms, f.before) AS terms) x
          CROSS JOIN LATERAL (SELECT coalesce((x.terms->>'planId')::uuid, s.plan_id) AS plan_id, coalesce((x.terms->>'quantity')::int, s.quantity) AS quantity) t
           JOIN plans p ON p.id = t.plan_id),
       -- When each subscription was first counted: "ever counted before a boundary" is this time before it.
       fc AS (SELECT id, min(since) AS at FROM st WHERE status IN ('active', 'past_due') GROUP BY id),
       pairs AS (
         SELECT t.k, s.currency, coalesce(vs.v, 0) AS sv, coalesce(ve.v, 0) AS ev, coalesce(fc.at < b.prev_at, false) AS ever
           FROM touched t JOIN b ON b.k = t.k JOIN subs s ON s.id = t.id LEFT JOIN fc ON fc.id = t.id
           LEFT JOIN v vs ON vs.k = t.k - 1 AND vs.id = t.id LEFT JOIN v ve ON ve.k = t.k AND ve.id = t.id)
  SELECT 1 AS k, currency, sum(v)::bigint AS mrr, 0 AS new, 0 AS expansion, 0 AS contraction, 0 AS churned, 0 AS reactivated
    FROM v WHERE k = 1 GROUP BY currency
  UNION ALL
  SELECT k, currency, NULL,
         sum(CASE WHEN sv = 0 AND ev > 0 AND NOT ever THEN ev ELSE 0 END)::bigint,
         sum(CASE WHEN sv > 0 AND ev > sv THEN ev - sv ELSE 0 END)::bigint,
         sum(CASE WHEN ev > 0 AND sv > ev THEN sv - ev ELSE 0 END)::bigint,
         sum(CASE WHEN sv > 0 AND ev = 0 THEN sv ELSE 0 END)::bigint,
         sum(CASE WHEN sv = 0 AND ev > 0 AND ever THEN ev ELSE 0 END)::bigint
    FROM pairs GROUP BY k, currency`;

/** Recovered volume by method, and failed and recovered charges by dunning group, over attempts `a` of charges `ch`. */
const RECOVERY_SPLIT_SQL = [
  ...(['retry', 'card_update', 'manual_retry', 'balance'] as const).map(
    (by) =>
      `coalesce(sum(ch.amount) FILTER (WHERE a.status = 'declined' AND ch.status = 'succeeded' AND ch.recovered_by = '${by}'), 0)::bigint AS "recovered${by.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase())}"`,
  ),
  ...(['smart', 'fixed', 'holdout'] as const).flatMap((group) => {
    const name = group[0].toUpperCase() + group.slice(1);
    return [
      `count(*) FILTER (WHERE a.status = 'declined' AND ch.dunning_strategy = '${group}')::int AS "failed${name}"`,
      `count(*) FILTER (WHERE a.status = 'declined' AND ch.dunning_strategy = '${group}' AND ch.status = 'succeeded')::int AS "recovered${name}"`,
    ];
  }),
].join(',\n                ');

/**
 * Read-only figures over the audit trail (subscription_events), subscriptions, plans, charges, attempts and refunds. It
 * owns no table and writes nothing: a report reads what the owning modules recorded.
 */
@Injectable()
export class RevenueReportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async figures(boundaries: Date[], currency: string | null): Promise<RevenueRow[]> {
    const params = [boundaries, currency];
    const [mrr, churn, volume, refunds, currencies] = await Promise.all([
      this.read(MRR_SQL, params),
      // Churn and volume: the rows between the first and the last boundary, each placed in its interval by
      // width_bucket (interval i ends at boundary i + 1), so the index on the time serves any number of intervals.
      // One-off charges are no renewal volume: a decline of one says nothing of a subscription's recovery.
      this.read(
        `SELECT width_bucket(e.occurred_at, $1::timestamptz[]) + 1 AS k, p.currency,
                count(DISTINCT e.subscription_id) FILTER (WHERE e.to_status = 'canceled' AND e.type <> 'canceled_unpaid' AND e.from_status IN ('active', 'past_due'))::int AS voluntary,
                count(DISTINCT e.subscription_id) FILTER (WHERE e.type = 'canceled_unpaid' OR e.to_status = 'unpaid')::int AS involuntary
           FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id JOIN plans p ON p.id = s.plan_id
          WHERE e.to_status IN ('canceled', 'unpaid') AND e.occurred_at >= ($1::timestamptz[])[1] AND e.occurred_at < ($1::timestamptz[])[cardinality($1::timestamptz[])]
            AND ($2::text IS NULL OR p.currency = $2::text)
          GROUP BY 1, p.currency`,
        params,
      ),
      this.read(
        `SELECT width_bucket(a.attempted_at, $1::timestamptz[]) + 1 AS k, ch.currency,
                sum(ch.amount)::bigint AS "renewalVolume",
                coalesce(sum(ch.amount) FILTER (WHERE a.status = 'declined'), 0)::bigint AS "failedVolume",
                coalesce(sum(ch.amount) FILTER (WHERE a.status = 'declined' AND ch.status = 'succeeded'), 0)::bigint AS "recoveredVolume",
                ${RECOVERY_SPLIT_SQL}
           FROM charge_attempts a JOIN charges ch ON ch.id = a.charge_id
          WHERE a.number = 1 AND a.attempted_at >= ($1::timestamptz[])[1] AND a.attempted_at < ($1::timestamptz[])[cardinality($1::timestamptz[])]
            AND ($2::text IS NULL OR ch.currency = $2::text) AND ch.kind <> 'one_off'
          GROUP BY 1, ch.currency`,
        params,
      ),
      // Refunds by the (business) time they succeeded: money given back, which moves neither MRR nor churn.
      this.read(
        `SELECT width_bucket(r.completed_at, $1::timestamptz[]) + 1 AS k, r.currency, sum(r.amount)::bigint AS refunds, count(*)::int AS "refundCount"
           FROM refunds r
          WHERE r.status = 'succeeded' AND r.completed_at >= ($1::timestamptz[])[1] AND r.completed_at < ($1::timestamptz[])[cardinality($1::timestamptz[])]
            AND ($2::text IS NULL OR r.currency = $2::text)
          GROUP BY 1, r.currency`,
        params,
      ),
      // Every currency that has a subscription answers every interval, zeros included.
      this.read(
        `SELECT b.k, p.currency FROM generate_series(2, cardinality($1::timestamptz[])) AS b(k)
           CROSS JOIN plans p WHERE ($2::text IS NULL OR p.currency = $2::text) AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.plan_id = p.id)
          GROUP BY b.k, p.currency`,
        params,
      ),
    ]);
    return withMrr(merge(mrr, churn, volume, refunds, currencies));
  }

  /**
   * One read with the planner settings it needs: its estimates over CTEs are far above the real rows, which made JIT
   * compile for seconds to save milliseconds; the hashes over a year's attempts fit in memory rather than on disk.
   */
  private read(sql: string, params: unknown[]): Promise<Raw[]> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SET LOCAL jit = off`);
      await em.query(`SET LOCAL work_mem = '64MB'`);
      return em.query(sql, params);
    });
  }
}

type Raw = Record<string, string | number>;

/** MRR at each boundary: the first one's (row k = 1, then dropped) plus each interval's movements, in order. */
function withMrr(rows: RevenueRow[]): RevenueRow[] {
  const at = new Map(rows.filter((r) => r.k === 1).map((r) => [r.currency, r.mrr]));
  const intervals = rows.filter((r) => r.k > 1).sort((a, b) => a.k - b.k);
  for (const row of intervals) {
    row.mrrAtStart = at.get(row.currency) ?? 0;
    row.mrr = row.mrrAtStart + (row.new ?? 0) + (row.reactivated ?? 0) + (row.expansion ?? 0) - (row.contraction ?? 0) - (row.churned ?? 0);
    at.set(row.currency, row.mrr);
  }
  return intervals;
}

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
