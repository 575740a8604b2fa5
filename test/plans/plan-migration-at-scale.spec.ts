import { DataSource } from 'typeorm';
import { readyCustomers } from '../../src/bench/bench-fixtures';
import { countStatements } from '../../src/bench/statement-counter';
import { BillingRunService } from '../../src/billing/billing-run.service';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { PlanMigrationsService } from '../../src/plan-migrations/plan-migrations.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';

const SUBSCRIPTIONS = 10_000;
const DAY = 86_400_000;
const START = Date.parse('2027-01-01T00:00:00.000Z');
const OLD_PRICE = 100_000;
const NEW_PRICE = 101_700;

/**
 * The VAT change across a whole book of subscribers: 10,000 monthly subscriptions renewing on every day of January move
 * from a 20 % plan to a 22 % one with 30 days' notice, two replicas walking the migration and billing at once. Every
 * subscriber is told once and those with a change of their own are left alone; on a sample of one in ten, every renewal
 * inside the notice window is charged at the old price and rate and every one after at the new.
 */
describe('a plan migration of 10,000 subscriptions on two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    await resetDatabase();
    const env = { TEST_CLOCK: 'true', BILLING_TAX_RATES: '20%,22%', BILLING_UPCOMING_DAYS: '0' };
    a = await startTestApp({ env });
    b = await startTestApp({ env, sandbox: a.sandbox });
    db = a.app.get(DataSource);
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const both = <T>(work: (t: TestApp) => Promise<T>) => Promise.all([work(a), work(b)]);
  const setClock = (at: number) => a.api().post('/api/v1/test-clock').send({ now: new Date(at).toISOString() }).expect(200);

  it(
    'charges every renewal before the effective one at the old price and rate, every one from it at the new, and tells each subscriber once',
    async () => {
      await setClock(START - DAY);
      const plan = async (rate: string, price: number) =>
        (await a.api().post('/api/v1/plans').send({ name: `Seat ${rate}`, product: 'Seat', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price, taxRate: rate }] }).expect(201)).body
          .id as string;
      const [oldPlan, newPlan] = [await plan('20%', OLD_PRICE), await plan('22%', NEW_PRICE)];

      // Subscribers paid up to a renewal on each of January's first 28 days (00:00 UTC); one in a hundred has asked for
      // two seats from its next renewal, one in fifty has canceled.
      const customers = await readyCustomers(a.app.get(ProcessingGateway), 20);
      await db.query(
        `INSERT INTO customers (id, provider_customer_id, shop_id, status, ready_at) SELECT id, provider_id, $3, 'ready', now() FROM unnest($1::uuid[], $2::text[]) AS c(id, provider_id)`,
        [customers.map((c) => c.id), customers.map((c) => c.providerId), SANDBOX_SHOP_ID],
      );
      await db.query(
        `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_period_index, current_period_start, current_period_end, next_billing_at, pending_change)
         SELECT ($1::uuid[])[1 + (g % 20)], $2::uuid, CASE WHEN g % 50 = 1 THEN 'canceled' ELSE 'active' END, 'UTC', anchor, anchor, 1, anchor, renewal,
                CASE WHEN g % 50 = 1 THEN NULL ELSE renewal END,
                CASE WHEN g % 100 = 0 THEN jsonb_build_object('planId', $2::uuid::text, 'quantity', 2, 'effectiveAt', to_char(renewal AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END
           FROM generate_series(1, $3) g,
                LATERAL (SELECT $4::timestamptz + make_interval(days => (g % 28)::int) AS anchor) x,
                LATERAL (SELECT x.anchor + interval '1 month' AS renewal) y`,
        [customers.map((c) => c.id), oldPlan, SUBSCRIPTIONS, new Date(START - 31 * DAY)],
      );
      const moved = SUBSCRIPTIONS - SUBSCRIPTIONS / 50 - SUBSCRIPTIONS / 100;

      // Asked of one replica (which starts walking at once), walked by both; every statement the walk sends is counted.
      await setClock(START);
      const statements = countStatements(() => true);
      const before = statements.count;
      const startedAt = Date.now();
      const asked = await a.api().post(`/api/v1/plans/${oldPlan}/migrations`).send({ toPlanId: newPlan, noticeDays: 30 }).expect(202);
      const batches = [0, 0];
      const status = async () => ((await db.query(`SELECT status FROM plan_migrations WHERE id = $1`, [asked.body.id])) as { status: string }[])[0].status;
      while ((await status()) !== 'done') {
        const [byA, byB] = await both((t) => t.app.get(PlanMigrationsService).workDue());
        batches[0] += byA;
        batches[1] += byB;
      }
      const walkMs = Date.now() - startedAt;
      const walkStatements = statements.count - before;
      statements.stop();
      const walked = [(await a.api().get(`/api/v1/plan-migrations/${asked.body.id}`).expect(200)).body as { status: string; counts: { scheduled: number; skipped: number } }];
      expect(walked[0].counts).toEqual({ scheduled: moved, skipped: SUBSCRIPTIONS / 100 });
      const [pending] = await db.query(
        `SELECT count(*)::int AS n, count(DISTINCT pending_change->>'effectiveAt')::int AS dates,
                bool_and((pending_change->>'effectiveAt')::timestamptz = current_period_end + interval '1 month') AS next_but_one
           FROM subscriptions WHERE pending_change->>'source' = 'migration'`,
      );
      // 30 days after 01-01 is 01-31: January's renewals come first, each subscriber moves at its February one.
      expect(pending).toEqual({ n: moved, dates: 28, next_but_one: true });
      const [notices] = await db.query(
        `SELECT count(*)::int AS events, count(DISTINCT data->'object'->>'id')::int AS subscribers FROM events WHERE type = 'subscription.price_change_upcoming'`,
      );
      expect(notices).toEqual({ events: moved, subscribers: moved });

      // Billing is checked on one subscriber in ten (what each renewal costs does not depend on how many there are; the
      // walk above is what had to scale): two months of renewals, day by day to February 28, both replicas at once.
      await db.query(
        `UPDATE subscriptions SET status = 'canceled', next_billing_at = NULL
           WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM subscriptions) s WHERE n % 10 <> 0)`,
      );
      const [sample] = await db.query(
        `SELECT count(*) FILTER (WHERE pending_change->>'source' = 'migration')::int AS moved,
                count(*) FILTER (WHERE pending_change IS NOT NULL AND pending_change->>'source' IS DISTINCT FROM 'migration')::int AS own
           FROM subscriptions WHERE status = 'active'`,
      );
      expect(sample.moved).toBeGreaterThan(500);
      expect(sample.own).toBeGreaterThan(0);
      const billingFrom = Date.now();
      for (let day = 0; day <= 58; day++) {
        await setClock(START + day * DAY);
        await both((t) => t.app.get(BillingRunService).runPass(64));
      }
      const billingMs = Date.now() - billingFrom;
      const charged: { when: string; amount: number; n: number }[] = await db.query(
        `SELECT CASE WHEN period_start < '2027-01-31' THEN 'january' ELSE 'february' END AS when, amount::int AS amount, count(*)::int AS n
           FROM charges WHERE status = 'succeeded' GROUP BY 1, 2 ORDER BY 1 DESC, 2`,
      );
      expect(charged).toEqual([
        { when: 'january', amount: OLD_PRICE, n: sample.moved },
        { when: 'january', amount: 2 * OLD_PRICE, n: sample.own },
        { when: 'february', amount: OLD_PRICE * 2, n: sample.own },
        { when: 'february', amount: NEW_PRICE, n: sample.moved },
      ].sort((x, y) => (x.when === y.when ? x.amount - y.amount : x.when < y.when ? 1 : -1)));
      const [unsettled] = await db.query(`SELECT count(*)::int AS n FROM charges WHERE status <> 'succeeded'`);
      expect(unsettled.n).toBe(0);

      // What the provider was sent: each invoice's cart line at the rate of the price it was charged at.
      const invoices: { id: string; amount: number }[] = await db.query(`SELECT provider_invoice_id AS id, amount::int AS amount FROM charges WHERE kind = 'period'`);
      const rates = new Map<number, Set<string>>();
      for (let i = 0; i < invoices.length; i += 32) {
        await Promise.all(
          invoices.slice(i, i + 32).map(async ({ id, amount }) => {
            const invoice = await a.sandboxClient.call('GET', `/v2/processing/invoices/${id}`);
            const rate = (invoice.data as { cart: { taxMode?: { rate: string } }[] }).cart[0].taxMode?.rate ?? 'none';
            rates.set(amount, (rates.get(amount) ?? new Set()).add(rate));
          }),
        );
      }
      expect(Object.fromEntries([...rates].map(([amount, set]) => [amount, [...set]]))).toEqual({ [OLD_PRICE]: ['20%'], [NEW_PRICE]: ['22%'], [OLD_PRICE * 2]: ['20%'] });
      process.stdout.write(
        `plan migration of ${SUBSCRIPTIONS} subscriptions walked in ${walkMs} ms, ${walkStatements} statements (${(walkStatements / SUBSCRIPTIONS).toFixed(3)} per subscription); batches walked by the two replicas' loops: ${batches.join(' and ')} (and the asked replica's own walk); ${2 * (sample.moved + sample.own)} renewals of the sample billed in ${billingMs} ms\n`,
      );
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
