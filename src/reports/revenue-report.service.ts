import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { MetricsService } from '../common/metrics/metrics.service';
import { intervalBoundaries, ReportInterval } from './revenue-intervals';
import { RevenueIntervalDto, RevenueReportResponseDto } from './revenue-report-response.dto';
import { RevenueReportRepository, RevenueRow } from './revenue-report.repository';

/** Scrapes within this long share one read. */
const SNAPSHOT_TTL_MS = 1_000;

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/** Revenue figures per interval (definitions in docs/billing.md), and the same figures for the current month as gauges. */
@Injectable()
export class RevenueReportService {
  constructor(
    private readonly repository: RevenueReportRepository,
    private readonly clock: Clock,
    metrics: MetricsService,
  ) {
    // A scrape reads the current month (UTC, on the billing clock) once for all the gauges. A failed read (the
    // database down) leaves the last values, so /metrics still answers during an outage.
    let snapshot: { at: number; value: Promise<RevenueIntervalDto[] | undefined> } | undefined;
    const current = () => {
      const now = performance.now();
      if (!snapshot || now - snapshot.at > SNAPSHOT_TTL_MS) snapshot = { at: now, value: this.currentMonth().catch(() => undefined) };
      return snapshot.value;
    };
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
    gauge('revenue_mrr', 'MRR now, minor units (monthly-normalised active and past_due subscriptions, trials excluded)', (i) => ({ '': i.mrr }));
    gauge('revenue_mrr_movement', 'MRR movements this month (UTC), minor units, by kind', (i) => ({ ...i.movements }));
    gauge('revenue_subscribers_churned', 'Subscriptions churned this month (UTC), by kind (voluntary, involuntary)', (i) => ({ ...i.subscribersChurned }));
    gauge('revenue_failure_rate', 'Share of this month’s renewal volume declined on its first attempt', (i) => ({ '': i.failureRate }));
    gauge('revenue_recovery_rate', 'Share of this month’s failed volume paid since', (i) => ({ '': i.recoveryRate }));
  }

  async report(from: Date, to: Date, interval: ReportInterval, currency: string | null): Promise<RevenueReportResponseDto> {
    const boundaries = intervalBoundaries(from, to, interval);
    const rows = await this.repository.figures(boundaries, currency);
    const currencies = [...new Set(rows.map((r) => r.currency))].sort();
    if (currency && currencies.length === 0) currencies.push(currency);
    const byKey = new Map(rows.map((r) => [`${r.k} ${r.currency}`, r]));
    const items: RevenueIntervalDto[] = [];
    for (let i = 0; i + 1 < boundaries.length; i++) {
      // Boundaries are numbered from 1; interval i ends at boundary i + 2.
      for (const c of currencies) items.push(toInterval(boundaries[i], boundaries[i + 1], c, byKey.get(`${i + 2} ${c}`)));
    }
    return { interval, items };
  }

  private async currentMonth(): Promise<RevenueIntervalDto[]> {
    await this.clock.refresh();
    const now = this.clock.now();
    return (await this.report(now, now, 'month', null)).items;
  }
}

function toInterval(start: Date, end: Date, currency: string, row: RevenueRow | undefined): RevenueIntervalDto {
  const n = (value: number | undefined) => value ?? 0;
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    currency,
    mrrAtStart: n(row?.mrrAtStart),
    mrr: n(row?.mrr),
    movements: { new: n(row?.new), expansion: n(row?.expansion), contraction: n(row?.contraction), churned: n(row?.churned), reactivated: n(row?.reactivated) },
    subscribersChurned: { voluntary: n(row?.voluntary), involuntary: n(row?.involuntary) },
    renewalVolume: n(row?.renewalVolume),
    failedVolume: n(row?.failedVolume),
    recoveredVolume: n(row?.recoveredVolume),
    failureRate: rate(n(row?.failedVolume), n(row?.renewalVolume)),
    recoveryRate: rate(n(row?.recoveredVolume), n(row?.failedVolume)),
  };
}
