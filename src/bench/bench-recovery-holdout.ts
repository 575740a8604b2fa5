import { Client } from 'pg';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { RevenueReportService } from '../reports/revenue-report.service';
import type { RecoveryByStrategyDto } from '../reports/revenue-report-response.dto';
import { readyCustomers } from './bench-fixtures';
import { RECOVERY_START, RecoveryFigures, simulate, startApp } from './bench-recovery';
import { BenchSandbox } from './bench-sandbox';

export interface HoldoutFigures {
  holdoutPercent: number;
  all: RecoveryFigures;
  /** As the revenue report answers them for the month of the first declines. */
  byStrategy: RecoveryByStrategyDto[];
  recoveryRateBy: Record<string, number | null>;
}

/**
 * `npm run bench -- recovery-holdout`: the recovery model's population (recovery-model.ts) under smart dunning with
 * DUNNING_HOLDOUT_PERCENT of it on the fixed ladder, in one run, read back through the revenue report: what a merchant
 * with a holdout would see, with the 95 % Wilson interval of each group's recovery rate.
 */
export async function benchRecoveryHoldout(url: string, sandbox: BenchSandbox, size: number, days: number, seed: number, holdoutPercent: number): Promise<HoldoutFigures> {
  const db = new Client({ connectionString: url });
  await db.connect();
  const app = await startApp(url, sandbox, 'smart', { DUNNING_HOLDOUT_PERCENT: String(holdoutPercent) });
  try {
    const customers = await readyCustomers(app.get(ProcessingGateway), size);
    const all = await simulate(app, db, sandbox, customers, `smart with a ${holdoutPercent} % holdout`, days, seed);
    const from = new Date(Date.UTC(RECOVERY_START.getUTCFullYear(), RECOVERY_START.getUTCMonth(), 1));
    const to = new Date(Date.UTC(RECOVERY_START.getUTCFullYear(), RECOVERY_START.getUTCMonth() + 1, 1));
    const report = await app.get(RevenueReportService).report(from, to, 'month', null);
    const month = report.items[0];
    return { holdoutPercent, all, byStrategy: month?.recoveryByStrategy ?? [], recoveryRateBy: { ...(month?.recoveryRateBy ?? {}) } };
  } finally {
    await app.close();
    await db.end();
  }
}

/** The table the bench prints. */
export function holdoutTable(f: HoldoutFigures): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const rows = f.byStrategy.map((g) => `| ${g.strategy} | ${g.charges} | ${g.recovered} | ${pct(g.recoveryRate)} | ${pct(g.interval.low)} – ${pct(g.interval.high)} |`);
  const by = Object.entries(f.recoveryRateBy)
    .map(([method, rate]) => `${method} ${rate === null ? '–' : pct(rate)}`)
    .join(', ');
  return [
    `holdout ${f.holdoutPercent} %: recovered volume by method (share of failed volume): ${by}`,
    '| group | declined charges | recovered | recovery rate | 95 % Wilson interval |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
