import { Injectable } from '@nestjs/common';
import { intervalBoundaries, ReportInterval } from './revenue-intervals';
import { RecoveryByStrategyDto, RevenueIntervalDto, RevenueReportResponseDto } from './revenue-report-response.dto';
import { wilsonInterval } from './wilson-interval';
import { RevenueReportRepository, RevenueRow } from './revenue-report.repository';

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/** Revenue figures per interval (definitions in docs/billing.md); RevenueGaugesService exports the current month's. */
@Injectable()
export class RevenueReportService {
  constructor(private readonly repository: RevenueReportRepository) {}

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
    recoveryRateBy: {
      retry: rate(n(row?.recoveredRetry), n(row?.failedVolume)),
      card_update: rate(n(row?.recoveredCardUpdate), n(row?.failedVolume)),
      manual_retry: rate(n(row?.recoveredManualRetry), n(row?.failedVolume)),
      balance: rate(n(row?.recoveredBalance), n(row?.failedVolume)),
    },
    recoveryByStrategy: byStrategy(row),
    refunds: n(row?.refunds),
    refundCount: n(row?.refundCount),
  };
}

function byStrategy(row: RevenueRow | undefined): RecoveryByStrategyDto[] {
  if (!row) return [];
  const groups = [
    { strategy: 'smart' as const, charges: row.failedSmart ?? 0, recovered: row.recoveredSmart ?? 0 },
    { strategy: 'fixed' as const, charges: row.failedFixed ?? 0, recovered: row.recoveredFixed ?? 0 },
    { strategy: 'holdout' as const, charges: row.failedHoldout ?? 0, recovered: row.recoveredHoldout ?? 0 },
  ];
  return groups
    .filter((g) => g.charges > 0)
    .map((g) => ({ ...g, recoveryRate: rate(g.recovered, g.charges) as number, interval: wilsonInterval(g.recovered, g.charges) as { low: number; high: number } }));
}
