import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import { Plan } from '../plans/plan.entity';
import { periodsBegunBy, periodStart } from '../subscriptions/billing-calendar';
import type { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning } from './billing-tuning';
import { Charge } from './charge.entity';
import { ChargeOutcome, ChargeProcessorService, invoiceExternalId } from './charge-processor.service';
import { ChargeQueueService } from './charge-queue.service';
import { randomUUID } from 'node:crypto';

export interface BillingRunSummary {
  /** Charges worked on in this pass (new periods, retries and open outcomes). */
  due: number;
  succeeded: number;
  declined: number;
  unknown: number;
  /** Due subscriptions not charged because their customer has no usable card yet. */
  skippedNotReady: number;
  /** Periods that became charges in this pass. */
  created: number;
}

/**
 * One billing pass: activate subscriptions whose customer became ready, wake charges that waited for
 * a new card, turn due periods into charges, then work every due charge. Any number of replicas can
 * run passes at once: periods are claimed with SKIP LOCKED and a unique (subscription, period), charges
 * with leases.
 */
@Injectable()
export class BillingRunService {
  private readonly logger = new Logger(BillingRunService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly queue: ChargeQueueService,
    private readonly processor: ChargeProcessorService,
    private readonly tuning: BillingTuning,
    private readonly metrics: BillingMetricsService,
    private readonly shutdown: ShutdownSignal,
    private readonly lifecycle: SubscriptionLifecycleService,
  ) {}

  async runPass(concurrency: number): Promise<BillingRunSummary> {
    await this.clock.refresh();
    const now = this.clock.now();
    const summary: BillingRunSummary = { due: 0, succeeded: 0, declined: 0, unknown: 0, skippedNotReady: 0, created: 0 };
    await this.activateReadySubscriptions(now);
    await this.wakeChargesWithNewCard(now);
    // Each round advances every due subscription by one period, so a daemon that was down catches up
    // on every missed period (none is skipped); the cap only bounds one pass.
    for (let round = 0; round < 1000 && !this.shutdown.isShuttingDown; round++) {
      const advanced = await this.materializeDuePeriods(now);
      summary.created += advanced;
      if (advanced === 0) break;
    }
    summary.skippedNotReady = await this.countDueNotReady(now);

    await this.workDueCharges(now, concurrency, summary);
    await this.updateBacklogGauges(now);
    this.metrics.passes.inc();
    this.logger.log({ ...summary, at: now.toISOString() }, 'Billing pass finished');
    return summary;
  }

  /**
   * Works every charge due now (new periods, retries, outcomes still open, claims of a process that died) on
   * the engine's pool, without materializing new periods: the runner calls this every second or so.
   */
  async drainDueCharges(concurrency: number): Promise<number> {
    await this.clock.refresh();
    const summary: BillingRunSummary = { due: 0, succeeded: 0, declined: 0, unknown: 0, skippedNotReady: 0, created: 0 };
    await this.workDueCharges(this.clock.now(), concurrency, summary);
    return summary.due;
  }

  private async workDueCharges(now: Date, concurrency: number, summary: BillingRunSummary): Promise<void> {
    summary.due += await this.queue.drain(now, async (claim) => this.count(summary, await this.processor.process(claim)), {
      concurrency,
      batchSize: this.tuning.claimBatchSize,
      stopping: () => this.shutdown.isShuttingDown,
    });
  }

  private count(summary: BillingRunSummary, outcome: ChargeOutcome): void {
    if (outcome === 'succeeded') summary.succeeded++;
    else if (outcome === 'declined' || outcome === 'failed') summary.declined++;
    else if (outcome === 'unknown' || outcome === 'pending') summary.unknown++;
  }

  /** Incomplete subscriptions start billing as soon as their customer is ready: the first charge is due now. */
  private async activateReadySubscriptions(now: Date): Promise<void> {
    await this.dataSource.transaction((em) => this.lifecycle.activateReady(em, now, this.tuning.materializeBatchSize));
  }

  /** A charge that waited for a new card after a hard decline is due again once the active card changed. */
  private async wakeChargesWithNewCard(now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE charges ch
          SET step = 'create_payment', status = 'retrying', next_attempt_at = $1, not_before = NULL, declined_binding_id = NULL
         FROM customers c
        WHERE ch.step = 'awaiting_card' AND c.id = ch.customer_id AND c.status = 'ready'
          AND c.active_binding_id IS DISTINCT FROM ch.declined_binding_id`,
      [now],
    );
  }

  /** Turns due periods into charges, at most one batch per call; returns how many subscriptions it advanced. */
  private async materializeDuePeriods(now: Date): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const due = await this.lifecycle.lockDue(em, now, this.tuning.materializeBatchSize);
      if (due.length === 0) return 0;
      const planIds = [...new Set(due.map((s) => s.planId))];
      const plans = new Map((await em.getRepository(Plan).findBy({ id: In(planIds) })).map((p) => [p.id, p]));
      for (const s of due) {
        const plan = plans.get(s.planId) as Plan;
        if (s.cancelAtPeriodEnd) {
          await this.lifecycle.endAtPeriodBoundary(em, s, now);
          continue;
        }
        const anchor = s.billingAnchor as Date;
        const begun = periodsBegunBy(anchor, s.timezone, plan.interval, plan.intervalCount, s.nextPeriodIndex, now);
        if (begun > this.tuning.maxCatchUpPeriods) await this.skipMissedPeriods(em, s, plan, begun - this.tuning.maxCatchUpPeriods, now);
        const index = s.nextPeriodIndex;
        const start = periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, index);
        const end = periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, index + 1);
        const chargeId = randomUUID();
        // The unique (subscription, period) makes a second charge for a period impossible, whoever races.
        const inserted = await em
          .createQueryBuilder()
          .insert()
          .into(Charge)
          .values({
            id: chargeId,
            subscriptionId: s.id,
            customerId: s.customerId,
            periodIndex: index,
            periodStart: start,
            periodEnd: end,
            amount: plan.amount,
            currency: plan.currency,
            status: 'pending',
            step: 'create_invoice',
            invoiceExternalId: invoiceExternalId(chargeId),
            nextAttemptAt: now,
          })
          .orIgnore()
          .execute();
        const made = (inserted.identifiers?.length ?? 0) > 0;
        await this.lifecycle.startPeriod(em, s, { index, start, end, charge: made ? { id: chargeId, amount: plan.amount } : undefined }, now);
      }
      return due.length;
    });
  }

  /**
   * After downtime, the oldest periods beyond the catch-up cap become `skipped` charges (never sent to the
   * provider, and never charged later: the unique (subscription, period) holds them), with an audit event, a
   * metric and a warning, so no backlog is charged in one burst and none is dropped silently.
   */
  private async skipMissedPeriods(em: EntityManager, s: Subscription, plan: Plan, count: number, now: Date): Promise<void> {
    const anchor = s.billingAnchor as Date;
    const periods: { chargeId: string; start: Date }[] = [];
    for (let index = s.nextPeriodIndex; index < s.nextPeriodIndex + count; index++) {
      const start = periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, index);
      const chargeId = randomUUID();
      await em
        .createQueryBuilder()
        .insert()
        .into(Charge)
        .values({
          id: chargeId,
          subscriptionId: s.id,
          customerId: s.customerId,
          periodIndex: index,
          periodStart: start,
          periodEnd: periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, index + 1),
          amount: plan.amount,
          currency: plan.currency,
          status: 'skipped',
          step: 'done',
          invoiceExternalId: invoiceExternalId(chargeId),
          nextAttemptAt: null,
        })
        .orIgnore()
        .execute();
      periods.push({ chargeId, start });
    }
    const nextIndex = s.nextPeriodIndex + count;
    await this.lifecycle.periodsSkipped(em, s, { nextIndex, nextStart: periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, nextIndex), periods }, now);
    this.metrics.skippedPeriods.inc(count);
    this.logger.warn(
      { subscriptionId: s.id, skipped: count, from: periods[0].start.toISOString(), to: periods[periods.length - 1].start.toISOString(), cap: this.tuning.maxCatchUpPeriods },
      `Subscription ${s.id}: ${count} missed period(s) beyond the catch-up cap recorded as skipped, not charged`,
    );
  }

  private async countDueNotReady(now: Date): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM subscriptions s JOIN customers c ON c.id = s.customer_id
        WHERE s.next_billing_at <= $1 AND s.status IN ('trialing', 'active', 'past_due') AND c.status <> 'ready'`,
      [now],
    );
    return row.n as number;
  }

  private async updateBacklogGauges(now: Date): Promise<void> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS n, min(next_attempt_at) AS oldest FROM charges WHERE next_attempt_at <= $1`,
      [now],
    );
    this.metrics.dueBacklog.set(row.n as number);
    this.metrics.oldestDueAgeSeconds.set(row.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000) : 0);
  }
}
