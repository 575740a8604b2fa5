import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

/**
 * A month of history written by hand (March 2027), then every figure of the revenue report checked to the kopeck.
 * MRR on 1 March (RUB): S1 99,000 + S2 10,000 (120,000 a year) + S4 99,000 + S6 99,000 = 307,000.
 * In March: S2 canceled (voluntary, −10,000), S3's weekly trial turned paid (+1000 × 52 / 12 = 4333.33 → 4333),
 * S4 canceled by dunning and S6 unpaid (involuntary, −99,000 each), S5 resumed after a pause (reactivated +99,000).
 * MRR on 1 April: 307,000 + 4333 + 99,000 − 208,000 = 202,333.
 * Refunds in March (RUB): 1000 to S1's card and 500 to its balance succeeded (a failed, a pending and a February one
 * do not count); they move neither MRR nor churn.
 */
describe('GET /api/v1/reports/revenue', () => {
  let t: TestApp;
  let db: DataSource;
  const plans: Record<string, string> = {};
  const subs: Record<string, string> = {};

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    db = t.app.get(DataSource);
    const [customer] = await db.query(`INSERT INTO customers (provider_customer_id, shop_id, status) VALUES ('c1', 'shop', 'ready') RETURNING id`);
    const plan = async (name: string, interval: string, amount: number, currency = 'RUB') =>
      (plans[name] = (
        await db.query(
          `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id) VALUES ($1, $1, $2, $3, 1, 0, '[]', $4, 'shop') RETURNING id`,
          [name, currency, interval, amount],
        )
      )[0].id);
    await plan('monthly', 'month', 99000);
    await plan('yearly', 'year', 120000);
    await plan('weekly', 'week', 1000);
    await plan('dollars', 'month', 500, 'USD');
    /** A subscription and its status changes: [time, type, from, to]. */
    const subscription = async (name: string, planName: string, changes: [string, string, string | null, string][]) => {
      const [row] = await db.query(`INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at) VALUES ($1, $2, $3, 'UTC', $4) RETURNING id`, [
        customer.id,
        plans[planName],
        changes[changes.length - 1][3],
        changes[0][0],
      ]);
      subs[name] = row.id;
      for (const [at, type, from, to] of changes) {
        await db.query(`INSERT INTO subscription_events (subscription_id, type, from_status, to_status, occurred_at, created_at) VALUES ($1, $2, $3, $4, $5, $5)`, [row.id, type, from, to, at]);
      }
    };
    await subscription('S1', 'monthly', [['2027-01-10T00:00:00Z', 'created', null, 'active']]);
    await subscription('S2', 'yearly', [
      ['2027-02-01T00:00:00Z', 'created', null, 'active'],
      ['2027-03-10T00:00:00Z', 'canceled', 'active', 'canceled'],
    ]);
    await subscription('S3', 'weekly', [
      ['2027-02-25T00:00:00Z', 'created', null, 'trialing'],
      ['2027-03-04T00:00:00Z', 'trial_ended', 'trialing', 'active'],
    ]);
    await subscription('S4', 'monthly', [
      ['2027-01-01T00:00:00Z', 'created', null, 'active'],
      ['2027-03-02T00:00:00Z', 'past_due', 'active', 'past_due'],
      ['2027-03-20T00:00:00Z', 'canceled_unpaid', 'past_due', 'canceled'],
    ]);
    await subscription('S5', 'monthly', [
      ['2026-12-01T00:00:00Z', 'created', null, 'active'],
      ['2027-02-10T00:00:00Z', 'paused', 'active', 'paused'],
      ['2027-03-15T00:00:00Z', 'resumed', 'paused', 'active'],
    ]);
    await subscription('S6', 'monthly', [
      ['2027-02-01T00:00:00Z', 'created', null, 'active'],
      ['2027-03-03T00:00:00Z', 'past_due', 'active', 'past_due'],
      ['2027-03-25T00:00:00Z', 'unpaid', 'past_due', 'unpaid'],
    ]);
    await subscription('S7', 'dollars', [['2027-03-05T00:00:00Z', 'created', null, 'active']]);
    await subscription('S8', 'monthly', [['2027-03-20T00:00:00Z', 'created', null, 'trialing']]);

    /** A charge and its attempts: [time, status]. */
    let n = 0;
    const charge = async (sub: string, amount: number, currency: string, status: string, attempts: [string, string][]): Promise<string> => {
      const [row] = await db.query(
        `INSERT INTO charges (subscription_id, customer_id, period_index, period_start, period_end, amount, currency, status, step, invoice_external_id)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, 'done', $8) RETURNING id`,
        [subs[sub], customer.id, n, attempts[0][0], amount, currency, status, `inv-test-${++n}`],
      );
      for (const [i, [at, attemptStatus]] of attempts.entries()) {
        await db.query(`INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at) VALUES ($1, $2, $3, $4, $5)`, [row.id, i + 1, `pay-test-${n}-${i}`, attemptStatus, at]);
      }
      return row.id as string;
    };
    const refunded = await charge('S1', 99000, 'RUB', 'succeeded', [['2027-03-10T00:00:00Z', 'succeeded']]);
    /** A refund of S1's March charge: [amount, to, status, completed]. */
    const refunds: [number, string, string, string | null][] = [
      [1000, 'card', 'succeeded', '2027-03-12T00:00:00Z'],
      [500, 'balance', 'succeeded', '2027-03-31T23:59:59.999Z'],
      [300, 'card', 'failed', '2027-03-13T00:00:00Z'],
      [200, 'card', 'pending', null],
      [100, 'balance', 'succeeded', '2027-02-28T00:00:00Z'],
    ];
    for (const [i, [amount, to, status, completedAt]] of refunds.entries()) {
      await db.query(
        `INSERT INTO refunds (id, charge_id, customer_id, number, amount, currency, destination, status, step, external_id, completed_at, created_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'RUB', $5, $6, 'done', $7, $8, '2027-03-11T00:00:00Z')`,
        [refunded, customer.id, i + 1, amount, to, status, to === 'card' ? `rf-test-${i}` : null, completedAt],
      );
    }
    const dunned = async (id: string, strategy: string, recoveredBy: string | null) =>
      db.query(`UPDATE charges SET dunning_strategy = $2, recovered_by = $3 WHERE id = $1`, [id, strategy, recoveredBy]);
    await dunned(await charge('S4', 99000, 'RUB', 'failed', [['2027-03-01T00:00:00Z', 'declined']]), 'smart', null);
    const recovered = await charge('S5', 12345, 'RUB', 'succeeded', [
      ['2027-03-15T00:00:00Z', 'declined'],
      ['2027-03-20T00:00:00Z', 'succeeded'],
    ]);
    await dunned(recovered, 'smart', 'card_update');
    await dunned(await charge('S3', 1000, 'RUB', 'retrying', [['2027-03-04T00:00:00Z', 'declined']]), 'holdout', null);
    // February's: not in March's figures.
    await charge('S1', 99000, 'RUB', 'succeeded', [
      ['2027-02-28T23:59:59.999Z', 'declined'],
      ['2027-03-01T09:00:00Z', 'succeeded'],
    ]);
    await charge('S7', 500, 'USD', 'succeeded', [['2027-03-05T00:00:00Z', 'succeeded']]);
  });

  afterAll(async () => {
    await t.close();
  });

  const report = async (query: Record<string, string>) => (await t.api().get('/api/v1/reports/revenue').query(query).expect(200)).body;

  it('answers every figure of a month, to the kopeck, per currency', async () => {
    const body = await report({ from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:00:00Z' });
    expect(body).toEqual({
      interval: 'month',
      items: [
        {
          start: '2027-03-01T00:00:00.000Z',
          end: '2027-04-01T00:00:00.000Z',
          currency: 'RUB',
          mrrAtStart: 307000,
          mrr: 202333,
          movements: { new: 4333, expansion: 0, contraction: 0, churned: 208000, reactivated: 99000 },
          subscribersChurned: { voluntary: 1, involuntary: 2 },
          renewalVolume: 211345,
          failedVolume: 112345,
          recoveredVolume: 12345,
          failureRate: 0.5316,
          recoveryRate: 0.1099,
          recoveryRateBy: { retry: 0, card_update: 0.1099, manual_retry: 0, balance: 0 },
          // Counted in charges: S4 and S5 under smart (S5 recovered), S3 in the holdout; 95 % Wilson intervals.
          recoveryByStrategy: [
            { strategy: 'smart', charges: 2, recovered: 1, recoveryRate: 0.5, interval: { low: 0.0945, high: 0.9055 } },
            { strategy: 'holdout', charges: 1, recovered: 0, recoveryRate: 0, interval: { low: 0, high: 0.7935 } },
          ],
          refunds: 1500,
          refundCount: 2,
        },
        {
          start: '2027-03-01T00:00:00.000Z',
          end: '2027-04-01T00:00:00.000Z',
          currency: 'USD',
          mrrAtStart: 0,
          mrr: 500,
          movements: { new: 500, expansion: 0, contraction: 0, churned: 0, reactivated: 0 },
          subscribersChurned: { voluntary: 0, involuntary: 0 },
          renewalVolume: 500,
          failedVolume: 0,
          recoveredVolume: 0,
          failureRate: 0,
          recoveryRate: null,
          recoveryRateBy: { retry: null, card_update: null, manual_retry: null, balance: null },
          recoveryByStrategy: [],
          refunds: 0,
          refundCount: 0,
        },
      ],
    });
  });

  it('splits by day and week, and filters by currency', async () => {
    const days = await report({ from: '2027-03-19T00:00:00Z', to: '2027-03-21T00:00:00Z', interval: 'day', currency: 'RUB' });
    // 20 March: S4 canceled by dunning (−99,000); S8 only started a trial.
    expect(days.items.map((i: { start: string; mrr: number; movements: { churned: number } }) => [i.start.slice(0, 10), i.mrr, i.movements.churned])).toEqual([
      ['2027-03-19', 307000 + 4333 - 10000 + 99000, 0],
      ['2027-03-20', 307000 + 4333 - 10000 + 99000 - 99000, 99000],
    ]);
    const weeks = await report({ from: '2027-03-01T00:00:00Z', to: '2027-03-08T00:00:00Z', interval: 'week', currency: 'USD' });
    expect(weeks.items.map((i: { start: string; currency: string; mrr: number }) => [i.start, i.currency, i.mrr])).toEqual([['2027-03-01T00:00:00.000Z', 'USD', 500]]);
  });

  it('exports the current month as gauges', async () => {
    await t.api().post('/api/v1/test-clock').send({ now: '2027-03-31T12:00:00.000Z' }).expect(200);
    const metrics = (await t.api().get('/metrics').expect(200)).text;
    expect(metrics).toContain('revenue_mrr{currency="RUB"} 202333');
    expect(metrics).toContain('revenue_mrr_movement{currency="RUB",kind="churned"} 208000');
    expect(metrics).toContain('revenue_subscribers_churned{currency="RUB",kind="involuntary"} 2');
    expect(metrics).toContain('revenue_failure_rate{currency="RUB"} 0.5316');
    expect(metrics).toContain('revenue_recovery_rate{currency="RUB"} 0.1099');
    expect(metrics).toContain('revenue_refunds{currency="RUB"} 1500');
  });

  it('counts plan and quantity changes as expansion and contraction, from the audit trail, to the kopeck', async () => {
    const [customer] = await db.query(`SELECT id FROM customers LIMIT 1`);
    const [pro] = await db.query(
      `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id) VALUES ('pro', 'pro', 'RUB', 'month', 1, 0, '[]', 150050, 'shop') RETURNING id`,
    );
    /** A subscription active since 1 April on its current plan and quantity, with its changes: [time, from, to]. */
    const changed = async (planId: string, quantity: number, changes: [string, [string, number], [string, number]][]) => {
      const [row] = await db.query(`INSERT INTO subscriptions (customer_id, plan_id, quantity, status, timezone, start_at) VALUES ($1, $2, $3, 'active', 'UTC', '2027-04-01T00:00:00Z') RETURNING id`, [
        customer.id,
        planId,
        quantity,
      ]);
      await db.query(`INSERT INTO subscription_events (subscription_id, type, to_status, occurred_at, created_at) VALUES ($1, 'created', 'active', $2, $2)`, [row.id, '2027-04-01T00:00:00Z']);
      for (const [at, [fromPlan, fromQuantity], [toPlan, toQuantity]] of changes) {
        const data = { effective: 'now', from: { planId: fromPlan, quantity: fromQuantity }, to: { planId: toPlan, quantity: toQuantity }, credit: 0, cost: 0, net: 0 };
        await db.query(`INSERT INTO subscription_events (subscription_id, type, data, occurred_at, created_at) VALUES ($1, 'changed', $2, $3, $3)`, [row.id, data, at]);
      }
    };
    // 2 × 99,000 → 3 × 150,050 on 10 May: expansion 450,150 − 198,000 = 252,150.
    await changed(pro.id, 3, [['2027-05-10T00:00:00Z', [plans.monthly, 2], [pro.id, 3]]]);
    // 150,050 → 120,000 a year (10,000 a month) on 20 May: contraction 140,050.
    await changed(plans.yearly, 1, [['2027-05-20T00:00:00Z', [pro.id, 1], [plans.yearly, 1]]]);
    // Changed only in June (1 → 4 seats): May counts it at its former 99,000, no movement.
    await changed(plans.monthly, 4, [['2027-06-10T00:00:00Z', [plans.monthly, 1], [plans.monthly, 4]]]);

    const [may] = (await report({ from: '2027-05-01T00:00:00Z', to: '2027-06-01T00:00:00Z', currency: 'RUB' })).items;
    expect(may.movements).toEqual({ new: 0, expansion: 252150, contraction: 140050, churned: 0, reactivated: 0 });
    // March's figures plus the three subscriptions at their values on 1 May (198,000 + 150,050 + 99,000).
    expect(may.mrrAtStart).toBe(202333 + 198000 + 150050 + 99000);
    expect(may.mrr).toBe(may.mrrAtStart + 252150 - 140050);
    const [june] = (await report({ from: '2027-06-01T00:00:00Z', to: '2027-07-01T00:00:00Z', currency: 'RUB' })).items;
    expect(june.movements).toMatchObject({ expansion: 3 * 99000, contraction: 0 });
  });

  it.each([
    [{ to: '2027-04-01T00:00:00Z' }, 'from'],
    [{ from: '2027-03-01', to: '2027-04-01T00:00:00Z' }, 'from'],
    [{ from: '2027-04-01T00:00:00Z', to: '2027-03-01T00:00:00Z' }, 'to'],
    [{ from: '2020-01-01T00:00:00Z', to: '2027-03-01T00:00:00Z', interval: 'day' }, 'to'],
    [{ from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:00:00Z', interval: 'hour' }, 'interval'],
    [{ from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:00:00Z', currency: 'rub' }, 'currency'],
  ])('refuses %j naming %s', async (query, field) => {
    const res = await t.api().get('/api/v1/reports/revenue').query(query).expect(400);
    expect(res.body.field).toBe(field);
  });
});
