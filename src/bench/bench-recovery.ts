import { DateTime } from 'luxon';
import { Client } from 'pg';
import { createApp } from '../app.factory';
import { BillingRunService } from '../billing/billing-run.service';
import { Clock } from '../common/clock/clock';
import { TestClockService } from '../common/clock/test-clock.service';
import { loadConfig } from '../config/load-config';
import { RuntimeSettings } from '../config/runtime-settings';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { insertPlan, ReadyCustomer, readyCustomers, resetBilling } from './bench-fixtures';
import { BenchSandbox } from './bench-sandbox';
import { CODES, MODEL, ModelClass, ModelCustomer } from './recovery-model';

const DAY = 86_400_000;
export const RECOVERY_START = new Date('2027-03-03T07:00:00.000Z');
const ZONES = ['Europe/Moscow', 'Europe/Kaliningrad', 'Asia/Yekaterinburg', 'Asia/Vladivostok', 'America/New_York'];
const HARD = CODES.hard.split(':').pop() as string;

export interface RecoveryFigures {
  strategy: string;
  declined: number;
  declinedVolume: number;
  recovered: number;
  recoveredVolume: number;
  recoveryRate: number;
  meanDaysToRecovery: number;
  medianDaysToRecovery: number;
  retriesPerRecovered: number;
  attemptsAfterHardBeforeNewCard: number;
  cardsOverCap: number;
  attemptsOutsideHours: number;
  /** The same figures per decline class of the first decline, to see where a strategy wins or loses. */
  byClass: Record<ModelClass, ClassFigures>;
  seconds: number;
}

export interface ClassFigures {
  declined: number;
  recovered: number;
  retries: number;
}

type App = Awaited<ReturnType<typeof createApp>>;

/**
 * `npm run bench -- recovery`: a seeded population whose first renewal is declined (recovery-model.ts), run through the
 * real engine against the sandbox process under the test clock for `days` simulated days, once with the fixed ladder
 * (DUNNING_RETRY_DELAYS, default 1d,3d,5d,7d) and once with smart dunning. Before each pass, every open charge's
 * customer is scripted the outcome the model gives an attempt at that moment; a new card is the customer's active
 * binding changing in the database (what the customer follower records when a card is bound).
 */
export async function benchRecovery(url: string, sandbox: BenchSandbox, size: number, days: number, seed: number, smartMaxDays?: number): Promise<RecoveryFigures[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  let customers: ReadyCustomer[] = [];
  const figures: RecoveryFigures[] = [];
  try {
    for (const strategy of ['fixed', 'smart'] as const) {
      const app = await startApp(url, sandbox, strategy);
      try {
        if (customers.length === 0) customers = await readyCustomers(app.get(ProcessingGateway), size);
        figures.push(await simulate(app, db, sandbox, customers, strategy, days, seed, strategy === 'smart' ? smartMaxDays : undefined));
      } finally {
        await app.close();
      }
    }
  } finally {
    await db.end();
  }
  return figures;
}

export async function startApp(url: string, sandbox: BenchSandbox, strategy: 'fixed' | 'smart', env: Record<string, string> = {}): Promise<App> {
  const config = loadConfig({ ...process.env, ADMIN_TOKEN: 'bench-admin-token-0123456789', TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'false', LOG_LEVEL: 'warn', DUNNING_STRATEGY: strategy, ...env });
  const app = await createApp({ config, runtime: new RuntimeSettings(url, sandbox.url) });
  await app.init();
  return app;
}

export async function simulate(app: App, db: Client, sandbox: BenchSandbox, customers: ReadyCustomer[], strategy: string, days: number, seed: number, maxDays?: number): Promise<RecoveryFigures> {
  const started = Date.now();
  await resetBilling(db, customers);
  await db.query('TRUNCATE subscription_notices, events, test_clock CASCADE');
  const clock = app.get(Clock) as TestClockService;
  await clock.refresh();
  if (clock.now() < RECOVERY_START) await clock.set(RECOVERY_START);
  const planId = await insertPlan(db);
  // A merchant's longer (or shorter) smart window: a sensitivity figure, not the default.
  if (maxDays !== undefined) await db.query(`UPDATE plans SET dunning = $2 WHERE id = $1`, [planId, JSON.stringify({ maxDays, finalAction: 'cancel' })]);
  const model = customers.map((_, i) => new ModelCustomer(i, ZONES[i % ZONES.length], seed));
  await db.query(
    `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at)
     SELECT id, $2, 'active', zone, $3, $3, $3 FROM unnest($1::uuid[], $4::text[]) AS c(id, zone)`,
    [customers.map((c) => c.id), planId, RECOVERY_START, model.map((m) => m.zone)],
  );
  // Every first renewal is declined, with the customer's class.
  for (const m of model) await sandbox.scriptOutcomes(customers[m.index].providerId, [CODES[m.declineClass]]);
  const byCustomer = new Map(customers.map((c, i) => [c.id, i]));
  const replacedAt = new Map<number, number>();
  const end = RECOVERY_START.getTime() + days * DAY;
  const billing = app.get(BillingRunService);
  for (let now = RECOVERY_START.getTime(); now <= end; ) {
    await clock.set(new Date(now));
    for (const m of model) {
      const at = m.replaceAfterDays === null ? null : RECOVERY_START.getTime() + m.replaceAfterDays * DAY;
      if (at !== null && at <= now && !replacedAt.has(m.index)) {
        replacedAt.set(m.index, at);
        await db.query(`UPDATE customers SET active_binding_id = $2 WHERE id = $1`, [customers[m.index].id, `new-card-${m.index}`]);
      }
    }
    // The outcome each open first-period charge would meet now.
    const open = await db.query<{ customer_id: string; attempts: number; first: Date | null }>(
      `SELECT ch.customer_id, count(a.id)::int AS attempts, min(a.attempted_at) AS first FROM charges ch LEFT JOIN charge_attempts a ON a.charge_id = ch.id
        WHERE ch.period_index = 0 AND ch.status NOT IN ('succeeded', 'canceled') AND NOT (ch.status = 'failed' AND ch.step = 'done') GROUP BY ch.customer_id`,
    );
    for (const row of open.rows) {
      const i = byCustomer.get(row.customer_id) as number;
      const m = model[i];
      const outcome = row.attempts === 0 ? CODES[m.declineClass] : m.outcome(row.attempts + 1, new Date(now), row.first as Date, replacedAt.has(i));
      await sandbox.scriptOutcomes(customers[i].providerId, [outcome]);
    }
    await billing.runPass(16);
    const next = await db.query<{ at: Date | null }>(
      `SELECT least((SELECT min(next_attempt_at) FROM charges WHERE next_attempt_at > $1), (SELECT min(next_billing_at) FROM subscriptions WHERE next_billing_at > $1)) AS at`,
      [new Date(now)],
    );
    const replacements = model.map((m) => (m.replaceAfterDays === null ? Infinity : RECOVERY_START.getTime() + m.replaceAfterDays * DAY)).filter((t) => t > now);
    const candidates = [next.rows[0].at?.getTime() ?? Infinity, ...replacements, end + 1];
    now = Math.min(...candidates);
  }
  return measure(db, maxDays === undefined ? strategy : `${strategy} (maxDays ${maxDays})`, model, customers, replacedAt, (Date.now() - started) / 1000);
}

async function measure(db: Client, strategy: string, model: ModelCustomer[], customers: ReadyCustomer[], replacedAt: Map<number, number>, seconds: number): Promise<RecoveryFigures> {
  const { rows } = await db.query<{ customer_id: string; amount: string; status: string; attempts: { at: string; status: string; code: string | null }[] }>(
    `SELECT ch.customer_id, ch.amount, ch.status,
            json_agg(json_build_object('at', a.attempted_at, 'status', a.status, 'code', a.error_code) ORDER BY a.number) AS attempts
       FROM charges ch JOIN charge_attempts a ON a.charge_id = ch.id WHERE ch.period_index = 0 GROUP BY ch.id`,
  );
  const index = new Map(customers.map((c, i) => [c.id, i]));
  let declinedVolume = 0;
  let recoveredVolume = 0;
  let recovered = 0;
  let retries = 0;
  let afterHard = 0;
  let outsideHours = 0;
  const recoveryDays: number[] = [];
  const byClass = Object.fromEntries(Object.keys(MODEL.classMix).map((c) => [c, { declined: 0, recovered: 0, retries: 0 }])) as Record<ModelClass, ClassFigures>;
  for (const row of rows) {
    const i = index.get(row.customer_id) as number;
    const amount = Number(row.amount);
    const times = row.attempts.map((a) => Date.parse(a.at));
    const cls = byClass[model[i].declineClass];
    declinedVolume += amount;
    retries += row.attempts.length - 1;
    cls.declined++;
    cls.retries += row.attempts.length - 1;
    if (row.status === 'succeeded') {
      cls.recovered++;
      recovered++;
      recoveredVolume += amount;
      recoveryDays.push((times[times.length - 1] - times[0]) / DAY);
    }
    const hardAt = row.attempts.findIndex((a) => a.code?.split(':').includes(HARD));
    const newCard = replacedAt.get(i) ?? Infinity;
    if (hardAt >= 0) afterHard += times.filter((t, k) => k > hardAt && t < newCard).length;
    for (const t of times) {
      const hour = DateTime.fromMillis(t, { zone: model[i].zone }).hour;
      if (hour < 8 || hour >= 21) outsideHours++;
    }
  }
  const perCard = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT ch.customer_id, (SELECT count(*) FROM charge_attempts b JOIN charges c2 ON c2.id = b.charge_id
                                WHERE c2.customer_id = ch.customer_id AND b.attempted_at > a.attempted_at - interval '30 days' AND b.attempted_at <= a.attempted_at) AS w
         FROM charge_attempts a JOIN charges ch ON ch.id = a.charge_id) x WHERE w > 15`,
  );
  recoveryDays.sort((a, b) => a - b);
  return {
    strategy,
    declined: rows.length,
    declinedVolume,
    recovered,
    recoveredVolume,
    recoveryRate: declinedVolume ? recoveredVolume / declinedVolume : 0,
    meanDaysToRecovery: recoveryDays.length ? recoveryDays.reduce((a, b) => a + b, 0) / recoveryDays.length : 0,
    medianDaysToRecovery: recoveryDays.length ? recoveryDays[Math.floor(recoveryDays.length / 2)] : 0,
    retriesPerRecovered: recovered ? retries / recovered : 0,
    attemptsAfterHardBeforeNewCard: afterHard,
    cardsOverCap: perCard.rows[0].n,
    attemptsOutsideHours: outsideHours,
    byClass,
    seconds,
  };
}

/** The side-by-side table the bench prints. */
export function recoveryTable(figures: RecoveryFigures[]): string {
  const rows: [string, (f: RecoveryFigures) => string][] = [
    ['declined charges', (f) => String(f.declined)],
    ['declined volume (minor units)', (f) => String(f.declinedVolume)],
    ['recovered charges', (f) => String(f.recovered)],
    ['recovered volume (minor units)', (f) => String(f.recoveredVolume)],
    ['recovery rate', (f) => `${(f.recoveryRate * 100).toFixed(1)} %`],
    ['days to recovery, mean / median', (f) => `${f.meanDaysToRecovery.toFixed(1)} / ${f.medianDaysToRecovery.toFixed(1)}`],
    ['retries per recovered charge', (f) => f.retriesPerRecovered.toFixed(2)],
    ['attempts after a hard decline, before a new card', (f) => String(f.attemptsAfterHardBeforeNewCard)],
    ['attempts over the 15-in-30-days cap', (f) => String(f.cardsOverCap)],
    ['attempts outside 08:00-21:00 local', (f) => String(f.attemptsOutsideHours)],
    ...(Object.keys(MODEL.classMix) as ModelClass[]).map((c): [string, (f: RecoveryFigures) => string] => [
      `${c}: recovered / declined (retries, per recovered)`,
      (f) => {
        const k = f.byClass[c];
        return `${k.recovered} / ${k.declined} = ${((k.recovered / Math.max(1, k.declined)) * 100).toFixed(1)} % (${k.retries}, ${(k.retries / Math.max(1, k.recovered)).toFixed(2)})`;
      },
    ]),
    ['wall time (s)', (f) => f.seconds.toFixed(0)],
  ];
  const head = `| | ${figures.map((f) => f.strategy).join(' | ')} |\n|---|${figures.map(() => '---').join('|')}|`;
  return [head, ...rows.map(([label, cell]) => `| ${label} | ${figures.map(cell).join(' | ')} |`)].join('\n') + `\nmodel: ${JSON.stringify(MODEL)}`;
}
