import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { MetricsService } from '../common/metrics/metrics.service';
import { RevenueIntervalDto } from './revenue-report-response.dto';
import { RevenueReportService } from './revenue-report.service';

/**
 * How old the gauges' figures may get before a scrape starts a new read. Real time, like the other polling cadences:
 * the test clock stands still between moves.
 */
export const REVENUE_GAUGES_MAX_AGE_MS = 60_000;

const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The revenue report's figures for the current UTC month (on the billing clock) as Prometheus gauges. A report costs
 * a read over the whole audit trail, so a scrape answers from the last snapshot and, when that is older than
 * REVENUE_GAUGES_MAX_AGE_MS, starts one read in the background for the next scrape: at most one read a minute per
 * replica, whatever the number of scrapers, and no coordination between replicas. A scrape waits only when there is
 * no snapshot of the current month yet (the first one, or the month turned). A failed read (the database down) keeps
 * the last values, so /metrics still answers during an outage.
 */
@Injectable()
export class RevenueGaugesService {
  private snapshot: { month: string; items: RevenueIntervalDto[] } | undefined;
  private readStartedAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly reports: RevenueReportService,
    private readonly clock: Clock,
    metrics: MetricsService,
  ) {
    const current = () => this.current();
    const gauge = (name: string, help: string, pick: (i: RevenueIntervalDto) => Record<string, number | null>) =>
      metrics.gauge({
        name,
        help,
        labelNames: ['currency', 'kind'],
        async collect() {
          const items = await current();
          if (!items) return;
          this.reset();
          for (const item of items) {
            for (const [kind, value] of Object.entries(pick(item))) if (value !== null) this.set(kind ? { currency: item.currency, kind } : { currency: item.currency }, value);
          }
        },
      });
    gauge('revenue_mrr', 'MRR now, minor units (monthly-normalised active and past_due subscriptions, trials excluded); up to a minute old', (i) => ({ '': i.mrr }));
    gauge('revenue_mrr_movement', 'MRR movements this month (UTC), minor units, by kind; up to a minute old', (i) => ({ ...i.movements }));
    gauge('revenue_subscribers_churned', 'Subscriptions churned this month (UTC), by kind (voluntary, involuntary); up to a minute old', (i) => ({ ...i.subscribersChurned }));
    gauge('revenue_failure_rate', 'Share of this month’s renewal volume declined on its first attempt; up to a minute old', (i) => ({ '': i.failureRate }));
    gauge('revenue_refunds', 'Refunds that succeeded this month (UTC), minor units; up to a minute old', (i) => ({ '': i.refunds }));
    gauge('revenue_recovery_rate', 'Share of this month’s failed volume paid since; up to a minute old', (i) => ({ '': i.recoveryRate }));
  }

  /** The current month's figures for a scrape, or undefined when none could be read (the gauges keep their values). */
  private async current(): Promise<RevenueIntervalDto[] | undefined> {
    try {
      await this.clock.refresh();
    } catch {
      return undefined; // The test clock lives in the database: down, the gauges keep their values.
    }
    const month = monthOf(this.clock.now());
    if (this.snapshot?.month !== month) await this.refresh();
    else if (performance.now() - this.readStartedAt >= REVENUE_GAUGES_MAX_AGE_MS) void this.refresh();
    return this.snapshot?.month === month ? this.snapshot.items : undefined;
  }

  /** One read at a time; callers arriving during it share it. Never rejects: a failure keeps the last snapshot. */
  private refresh(): Promise<void> {
    this.reading ??= (async () => {
      this.readStartedAt = performance.now();
      try {
        const now = this.clock.now();
        const items = (await this.reports.report(now, now, 'month', null)).items;
        this.snapshot = { month: monthOf(now), items };
      } catch {
        // The database is unreachable: the last snapshot stands until a later read succeeds.
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
