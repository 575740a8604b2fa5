import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { intervalBoundaries } from '../reports/revenue-intervals';
import { RevenueReportRepository } from '../reports/revenue-report.repository';
import { REVENUE_NOW, revenueHistorySize, seedRevenueHistory } from './bench-revenue-seed';

const RUNS = 3;

/**
 * `npm run bench -- revenue`: seeds `count` subscriptions with their history (bench-revenue-seed.ts) and times the
 * revenue report's reads for the last month and the last 12 months before REVENUE_NOW, best and median of RUNS.
 * With `explain`, prints EXPLAIN ANALYZE of each read of both reports.
 */
export async function benchRevenue(url: string, count: number, seed: boolean, explain: boolean): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  const dataSource = new DataSource({ type: 'postgres', url, entities: [] });
  await dataSource.initialize();
  try {
    if (seed) {
      const started = Date.now();
      await seedRevenueHistory(db, count);
      console.log(`revenue: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    console.log(`revenue: ${await revenueHistorySize(db)}`);
    const repository = new RevenueReportRepository(dataSource);
    const from = (months: number) => new Date(Date.UTC(REVENUE_NOW.getUTCFullYear(), REVENUE_NOW.getUTCMonth() - months, 1));
    for (const months of [1, 12]) {
      const boundaries = intervalBoundaries(from(months), new Date(REVENUE_NOW.getTime() - 1), 'month');
      const seconds: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = process.hrtime.bigint();
        await repository.figures(boundaries, null);
        seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
      }
      seconds.sort((a, b) => a - b);
      console.log(
        `revenue: ${months} month${months > 1 ? 's' : ''} (${boundaries.length - 1} intervals): best ${seconds[0].toFixed(2)} s, median ${seconds[RUNS >> 1].toFixed(2)} s (target < 2 s)`,
      );
    }
    if (explain) {
      // The repository's reads, each explained instead of answered (its SET LOCALs run as they are).
      const explain = (em: EntityManager) => ({
        query: async (sql: string, params?: unknown[]) => (sql.startsWith('SET') ? em.query(sql) : printPlan(await em.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params))),
      });
      const explaining = { transaction: (work: (em: unknown) => Promise<unknown>) => dataSource.transaction((em) => work(explain(em))) };
      for (const months of [1, 12]) {
        console.log(`revenue: EXPLAIN ANALYZE, ${months} month(s)`);
        await new RevenueReportRepository(explaining as unknown as DataSource).figures(intervalBoundaries(from(months), new Date(REVENUE_NOW.getTime() - 1), 'month'), null);
      }
    }
  } finally {
    await dataSource.destroy();
    await db.end();
  }
}

function printPlan(rows: { 'QUERY PLAN': string }[]): [] {
  console.log(rows.map((r) => r['QUERY PLAN']).join('\n') + '\n');
  return [];
}
