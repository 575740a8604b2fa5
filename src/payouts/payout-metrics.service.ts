import { Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { SystemClock } from '../common/clock/system-clock';
import { MetricsService } from '../common/metrics/metrics.service';
import { PayoutsRepository } from './payouts.repository';

interface PendingSnapshot {
  pending: number;
  oldestAgeSeconds: number;
}

/** How long one database read serves both pending-withdrawal gauges of a scrape. */
const SNAPSHOT_TTL_MS = 1_000;

/** Payout metrics: outcomes as they happen, and the withdrawals still pending read from the database at scrape time. */
@Injectable()
export class PayoutMetricsService {
  private readonly logger = new Logger(PayoutMetricsService.name);
  readonly payouts: Counter<'outcome'>;
  readonly technicalFailures: Counter<'kind'>;
  readonly adoptedWithdrawals: Counter;
  private snapshot: { at: number; value: Promise<PendingSnapshot> } | undefined;

  constructor(
    metrics: MetricsService,
    private readonly payoutsRepository: PayoutsRepository,
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
  ) {
    this.payouts = metrics.counter({ name: 'billing_payouts_total', help: 'Payouts that reached a final status, by outcome (succeeded, failed)', labelNames: ['outcome'] });
    this.technicalFailures = metrics.counter({
      name: 'billing_payout_technical_failures_total',
      help: 'Payout steps left for a later retry after a provider or network fault, by provider error kind',
      labelNames: ['kind'],
    });
    this.adoptedWithdrawals = metrics.counter({
      name: 'billing_withdrawals_adopted_total',
      help: "Withdrawals the provider already held under a payout's externalID (a reference submitted again, e.g. after a database restore), followed instead of made again",
    });
    const readSnapshot = () => this.readSnapshot();
    // prom-client calls `collect` with the gauge as `this` at every scrape.
    const read = (pick: (s: PendingSnapshot) => number) =>
      async function (this: { set(value: number): void }) {
        const value = await readSnapshot();
        if (value) this.set(pick(value));
      };
    metrics.gauge({ name: 'billing_withdrawals_pending', help: 'Payouts whose withdrawal is at the provider and not final yet', collect: read((s) => s.pending) });
    metrics.gauge({
      name: 'billing_withdrawal_oldest_pending_age_seconds',
      help: 'Age of the oldest withdrawal still pending at the provider (0 when none)',
      collect: read((s) => s.oldestAgeSeconds),
    });
  }

  /** One query per scrape for both gauges; a failed read leaves the last values (the scrape still succeeds). */
  private async readSnapshot(): Promise<PendingSnapshot | undefined> {
    const now = performance.now();
    if (!this.snapshot || now - this.snapshot.at > SNAPSHOT_TTL_MS) {
      this.snapshot = { at: now, value: this.readPending() };
    }
    try {
      return await this.snapshot.value;
    } catch (error) {
      this.snapshot = undefined;
      this.logger.warn({ err: error }, 'Could not read pending withdrawals for the metrics');
      return undefined;
    }
  }

  private async readPending(): Promise<PendingSnapshot> {
    const { pending, oldestSubmittedAt } = await this.payoutsRepository.pendingWithdrawals();
    return {
      pending,
      oldestAgeSeconds: oldestSubmittedAt === null ? 0 : Math.max(0, (this.clock.now().getTime() - oldestSubmittedAt.getTime()) / 1000),
    };
  }
}
