import { Client } from 'pg';

/** The bench's "now": the history ends here, and the reports measured end here. */
export const REVENUE_NOW = new Date('2027-01-01T00:00:00Z');

/** Plans of the seeded history: [currency, interval, amount]. Subscription g is on plan g % 6. */
const PLANS: [string, string, number][] = [
  ['RUB', 'month', 99000],
  ['RUB', 'month', 150050],
  ['RUB', 'year', 990000],
  ['RUB', 'week', 25000],
  ['USD', 'month', 1500],
  ['RUB', 'month', 49000],
];

/**
 * Empties the billing tables and seeds `count` subscriptions started over the 18 months before REVENUE_NOW, each
 * with the audit trail, charges and attempts the daemon would have written (set-based, a few statements):
 * 20 % start with a 14-day trial; 20 % change plan and quantity 45 days in; 15 % cancel (voluntary), 7 % end in
 * dunning (half canceled, half unpaid), 8 % are past due for 5 days and recover, 6 % pause for 30 days (60 % of them
 * resume); one charge per plan interval while billable, its first attempt declined 8 % of the time and paid on a
 * second attempt 55 % of those; each charge also writes period_billed and charge_succeeded or charge_declined.
 * Rows go in in time order, as the daemon writes them. Random but repeatable (setseed).
 */
export async function seedRevenueHistory(db: Client, count: number): Promise<void> {
  await db.query(`TRUNCATE subscriptions, subscription_events, charges, charge_attempts, customers`);
  await db.query(`DELETE FROM plans WHERE name LIKE 'Bench revenue %'`);
  const plans: string[] = [];
  for (const [i, [currency, interval, amount]] of PLANS.entries()) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id)
       VALUES ($1, 'Bench', $2, $3, 1, 0, '[]', $4, 'bench') RETURNING id`,
      [`Bench revenue ${i}`, currency, interval, amount],
    );
    plans.push(rows[0].id);
  }
  await db.query(`INSERT INTO customers (provider_customer_id, shop_id, status) SELECT 'rev-bench-' || g, 'bench', 'ready' FROM generate_series(1, 1000) g`);
  await db.query(`SELECT setseed(0.16)`);
  // One row per subscription with its fate drawn once; the inserts below read it.
  await db.query(
    `CREATE TEMP TABLE bench_subs ON COMMIT PRESERVE ROWS AS
     WITH c AS (SELECT array_agg(id) AS ids FROM customers)
     SELECT g, gen_random_uuid() AS id, ($1::uuid[])[1 + g % 6] AS plan_id, 
            -- A change stays in its currency: the USD plan changes quantity only.
            ($1::uuid[])[CASE g % 6 WHEN 3 THEN 6 WHEN 4 THEN 5 ELSE 1 + (g + 1) % 6 END] AS old_plan,
            c.ids[1 + g % 1000] AS customer_id,
            $2::timestamptz - interval '548 days' + random() * interval '548 days' AS start_at,
            random() AS fate, random() AS r2, random() AS r3, random() < 0.2 AS trial, random() < 0.2 AS changes,
            1 + floor(random() * 3)::int AS quantity
       FROM generate_series(1, $3) g CROSS JOIN c`,
    [plans, REVENUE_NOW, count],
  );
  await db.query(
    `CREATE TEMP TABLE bench_events ON COMMIT PRESERVE ROWS AS
     WITH f AS (SELECT b.*, b.start_at + interval '30 days' + b.r2 * interval '300 days' AS at FROM bench_subs b)
     SELECT * FROM (
       SELECT id, 0 AS o, 'created' AS type, NULL AS from_status, CASE WHEN trial THEN 'trialing' ELSE 'active' END AS to_status, start_at AS occurred_at, '{}'::jsonb AS data FROM f
       UNION ALL SELECT id, 1, 'activated', 'trialing', 'active', start_at + interval '14 days', '{}' FROM f WHERE trial
       UNION ALL SELECT id, 2, 'changed', NULL, NULL, start_at + interval '45 days',
                        jsonb_build_object('effective', 'now', 'from', jsonb_build_object('planId', old_plan, 'quantity', 1), 'to', jsonb_build_object('planId', plan_id, 'quantity', quantity))
                   FROM f WHERE changes
       UNION ALL SELECT id, 3, 'canceled', 'active', 'canceled', at, '{}' FROM f WHERE fate < 0.15
       UNION ALL SELECT id, 3, 'past_due', 'active', 'past_due', at, '{}' FROM f WHERE fate >= 0.15 AND fate < 0.30
       UNION ALL SELECT id, 4, CASE WHEN r3 < 0.5 THEN 'canceled' ELSE 'unpaid' END, 'past_due', CASE WHEN r3 < 0.5 THEN 'canceled' ELSE 'unpaid' END, at + interval '21 days', '{}'
                   FROM f WHERE fate >= 0.15 AND fate < 0.22
       UNION ALL SELECT id, 4, 'recovered', 'past_due', 'active', at + interval '5 days', '{}' FROM f WHERE fate >= 0.22 AND fate < 0.30
       UNION ALL SELECT id, 3, 'paused', 'active', 'paused', at, '{}' FROM f WHERE fate >= 0.30 AND fate < 0.36
       UNION ALL SELECT id, 4, 'resumed', 'paused', 'active', at + interval '30 days', '{}' FROM f WHERE fate >= 0.30 AND fate < 0.36 AND r3 < 0.6
     ) e WHERE occurred_at < $1`,
    [REVENUE_NOW],
  );
  // Dunning's final cancel is the audit type canceled_unpaid.
  await db.query(`UPDATE bench_events SET type = 'canceled_unpaid' WHERE o = 4 AND type = 'canceled'`);
  // Each subscription's last status, and when it left active/past_due for good (canceled or unpaid).
  await db.query(
    `CREATE TEMP TABLE bench_ends ON COMMIT PRESERVE ROWS AS
     SELECT DISTINCT ON (id) id, to_status AS status,
            min(occurred_at) FILTER (WHERE to_status IN ('canceled', 'unpaid')) OVER (PARTITION BY id) AS end_at
       FROM bench_events WHERE to_status IS NOT NULL ORDER BY id, occurred_at DESC`,
  );
  await db.query(
    `INSERT INTO subscriptions (id, customer_id, plan_id, quantity, status, timezone, start_at, billing_anchor)
     SELECT b.id, b.customer_id, b.plan_id, CASE WHEN b.changes THEN b.quantity ELSE 1 END, x.status, 'UTC', b.start_at, b.start_at
       FROM bench_subs b JOIN bench_ends x ON x.id = b.id`,
  );
  // Billable from the trial's end until the subscription left active/past_due (pauses are billed through: a bench).
  await db.query(
    `CREATE TEMP TABLE bench_charges ON COMMIT PRESERVE ROWS AS
     SELECT gen_random_uuid() AS id, b.id AS subscription_id, b.customer_id, n - 1 AS period_index, at AS period_start,
            at + ('1 ' || p.interval)::interval AS period_end, p.amount * s.quantity AS amount, p.currency,
            random() < 0.08 AS declined, random() < 0.55 AS recovered
       FROM bench_subs b JOIN subscriptions s ON s.id = b.id JOIN plans p ON p.id = b.plan_id JOIN bench_ends x ON x.id = b.id
      CROSS JOIN LATERAL generate_series(b.start_at + CASE WHEN b.trial THEN interval '14 days' ELSE interval '0' END, coalesce(x.end_at, $1) - interval '1 second',
                                         ('1 ' || p.interval)::interval) WITH ORDINALITY AS c(at, n)`,
    [REVENUE_NOW],
  );
  await db.query(
    `INSERT INTO charges (id, subscription_id, customer_id, period_index, period_start, period_end, amount, currency, status, step, invoice_external_id, attempt_count)
     SELECT id, subscription_id, customer_id, period_index, period_start, period_end, amount, currency,
            CASE WHEN NOT declined THEN 'succeeded' WHEN recovered THEN 'succeeded' ELSE 'failed' END, 'done', 'rb-' || id, CASE WHEN declined THEN 2 ELSE 1 END
       FROM bench_charges ORDER BY period_start`,
  );
  await db.query(
    `INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at)
     SELECT id, 1, 'ra1-' || left(id::text, 30), CASE WHEN declined THEN 'declined' ELSE 'succeeded' END, period_start FROM bench_charges
     UNION ALL
     SELECT id, 2, 'ra2-' || left(id::text, 30), CASE WHEN recovered THEN 'succeeded' ELSE 'declined' END, period_start + interval '3 days' FROM bench_charges WHERE declined
     ORDER BY 5`,
  );
  await db.query(
    `INSERT INTO subscription_events (subscription_id, type, from_status, to_status, data, occurred_at, created_at)
     SELECT id, type, from_status, to_status, data, occurred_at, occurred_at FROM bench_events
     UNION ALL
     SELECT subscription_id, t.type, NULL, NULL, jsonb_build_object('chargeId', c.id), c.period_start, c.period_start
       FROM bench_charges c CROSS JOIN LATERAL (VALUES ('period_billed'), (CASE WHEN c.declined THEN 'charge_declined' ELSE 'charge_succeeded' END)) t(type)
     ORDER BY 6`,
  );
  await db.query(`DROP TABLE bench_subs, bench_events, bench_ends, bench_charges`);
  await db.query(`VACUUM ANALYZE subscriptions, subscription_events, charges, charge_attempts, plans`);
}

/** Row counts of the seeded history, for the bench's figures. */
export async function revenueHistorySize(db: Client): Promise<string> {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM subscriptions)::int AS subscriptions, (SELECT count(*) FROM subscription_events)::int AS events,
            (SELECT count(*) FROM subscription_events WHERE type = 'changed')::int AS changes,
            (SELECT count(*) FROM charges)::int AS charges, (SELECT count(*) FROM charge_attempts)::int AS attempts`,
  );
  return Object.entries(rows[0])
    .map(([k, v]) => `${Number(v).toLocaleString('en')} ${k}`)
    .join(', ');
}
