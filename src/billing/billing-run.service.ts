import { SubscriptionNoticesService } from '../subscriptions/subscription-notices.service';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { pollUntil } from '../common/clock/poll-until';
import { SystemClock } from '../common/clock/system-clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning, chargeWorkersFor, materializeBatchLimit } from './billing-tuning';
import { ChargeProcessorService } from './charge-processor.service';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import { ChargeOutcome } from './charge-settlement.service';
import { ChargesRepository } from './charges.repository';
import { MaterializeProgress } from './materialize-progress';
import { OneOffChargesRepository } from './one-off-charges.repository';
import { RecoveryLinksService } from '../recovery-links/recovery-links.service';
import { MaterializeScope, PeriodMaterializerService } from './period-materializer.service';

export interface BillingRunSummary {
  /** Charges worked on in this pass (new periods, retries and open outcomes). */
  due: number;
  succeeded: number;
  declined: number;
  unknown: number;
  /**
   * Charges left for later with no provider call because smart dunning attempts only between 08:00 and 21:00 in the
   * subscription's zone: each waits for the next 08:00 there on the billing clock (its nextAttemptAt).
   */
  waitingForAllowedHours: number;
  /** Charges left for later with no provider call because another attempt would pass the card network's cap. */
  waitingForAttemptCap: number;
  /** Due subscriptions not charged because their customer has no usable card yet. */
  skippedNotReady: number;
  /** Charges this pass made for periods that began (none when another replica made them first). */
  created: number;
  /** Due subscriptions whose period this pass could not make into a charge: recorded on them and left for later. */
  failedSubscriptions: number;
  /** Charges whose payment was at the provider, not final yet, when this pass left them (counted in `unknown`). */
  awaitingProvider?: string[];
}

const emptySummary = (): BillingRunSummary => ({ due: 0, succeeded: 0, declined: 0, unknown: 0, waitingForAllowedHours: 0, waitingForAttemptCap: 0, skippedNotReady: 0, created: 0, failedSubscriptions: 0 });
/** Most charges of other workers an admin run waits for; past that it answers what it knows after the wait. */
const IN_FLIGHT_WAIT_LIMIT = 1000;
/** Charges one pass makes before it refreshes the planner's statistics on them (and again each time they double). */
const STATISTICS_AFTER_CHARGES = 1000;

/**
 * One billing pass: activate subscriptions whose customer became ready, wake charges that waited for
 * a new card, turn due periods into charges, then work every due charge. Any number of replicas can
 * run passes at once: periods are claimed with SKIP LOCKED and a unique (subscription, period), charges
 * on the shared leased queue.
 */
@Injectable()
export class BillingRunService {
  private readonly logger = new Logger(BillingRunService.name);

  constructor(
    private readonly clock: Clock,
    private readonly charges: ChargesRepository,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly processor: ChargeProcessorService,
    private readonly materializer: PeriodMaterializerService,
    private readonly tuning: BillingTuning,
    private readonly metrics: BillingMetricsService,
    private readonly shutdown: ShutdownSignal,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly subscriptions: SubscriptionsService,
    private readonly notices: SubscriptionNoticesService,
    private readonly oneOffs: OneOffChargesRepository,
    private readonly recoveryLinks: RecoveryLinksService,
    private readonly realClock: SystemClock,
  ) {}

  /**
   * The admin's pass: due periods made into charges and every due charge worked here, its counts answered. The charges
   * are worked while they are being made, from the first committed batch on, as the engine's loop does with the
   * timer's: the provider slots do not wait for the last batch.
   */
  async runPass(concurrency: number): Promise<BillingRunSummary> {
    await this.clock.refresh();
    const now = this.clock.now();
    const summary = emptySummary();
    const progress = new MaterializeProgress();
    // An operator who runs a pass wants every due subscription tried now, those in billing backoff too.
    const materialized = this.materialize(now, summary, true, () => progress.batchCommitted()).finally(() => progress.finish());
    // The notices go out while the last charges are worked, not after them: a subscription with a charge due and
    // unsettled (its decline may end it) is held back, and this pass ends none of the others.
    const noticed = materialized.then(() => this.notices.sendDue(now));
    const worked = this.workDueCharges(now, concurrency, summary, progress);
    const [made, drained, sent] = await Promise.allSettled([materialized, worked, noticed]);
    if (made.status === 'rejected') throw made.reason;
    if (drained.status === 'rejected') throw drained.reason;
    if (sent.status === 'rejected') throw sent.reason;
    // The held ones once this pass has settled which subscriptions end (a payment still open at the provider holds on).
    if (sent.value.held > 0) await this.notices.sendDue(now);
    await this.endPass(now, summary);
    return summary;
  }

  /**
   * The timer's pass: due periods made into charges (and the notices and gauges of a pass), nothing worked here;
   * `onBatch` runs after each committed batch that made charges, for the caller to wake the charge queue, whose own
   * loop works them meanwhile. Answers how many charges were made.
   */
  async materializeDue(onBatch?: () => void): Promise<number> {
    await this.clock.refresh();
    const now = this.clock.now();
    const summary = emptySummary();
    await this.materialize(now, summary, false, onBatch);
    // The engine's loop works the charges: a notice held for one of them is decided by a later pass.
    await this.notices.sendDue(now);
    await this.endPass(now, summary);
    return summary.created;
  }

  /** Subscriptions whose customer became ready activated, charges that waited for a new card woken, periods charged. */
  private async materialize(now: Date, summary: BillingRunSummary, retryBackedOff: boolean, onBatch?: () => void): Promise<void> {
    // Each round advances every due subscription by one period, so a daemon that was down catches up on the
    // missed periods (up to the catch-up cap); the round limit only bounds one pass.
    let madeAtLastStatistics = 0;
    const scope: MaterializeScope = { failed: new Set(), retryBackedOff };
    for (let round = 0; round < 1000 && !this.shutdown.isShuttingDown; round++) {
      const { advanced, created } = await this.materializer.materializeBatch(now, materializeBatchLimit(round, this.tuning.materializeBatchSize), scope);
      summary.failedSubscriptions = scope.failed.size;
      summary.created += created;
      if (created > 0) onBatch?.();
      // A big pass doubles the due set many times over while it is claimed: statistics at 1,000, 2,000, 4,000...
      if (summary.created >= Math.max(STATISTICS_AFTER_CHARGES, 2 * madeAtLastStatistics)) {
        await this.charges.refreshStatistics();
        madeAtLastStatistics = summary.created;
      }
      // After the first batch, not before it: the provider slots wait for that batch, and these two seldom find work.
      // A subscription activated here is due at once, so the next rounds make its first charge.
      if (round === 0) await this.activateReadyAndWake(now);
      else if (advanced === 0) break;
    }
    summary.skippedNotReady = await this.subscriptions.countDueNotReady(now);
  }

  /**
   * Subscriptions whose customer became ready activated, charges that waited for a new card due again, and one-offs
   * that waited for their customer's first card.
   */
  private async activateReadyAndWake(now: Date): Promise<void> {
    await this.charges.transaction((em) => this.lifecycle.activateReady(em, now, this.tuning.materializeBatchSize));
    await this.charges.wakeAwaitingNewCard(now);
    await this.oneOffs.wakeWaitingForCustomer(now);
  }

  /**
   * A card was just bound for `customerId`: what waited for one (a charge after a hard decline, a smart retry timed
   * for the declined card, a one-off waiting for a first card) is due now. Answers how many charges became due.
   */
  async wakeForNewCard(customerId: string): Promise<number> {
    await this.clock.refresh();
    const now = this.clock.now();
    const woken = (await this.charges.wakeAwaitingNewCard(now, customerId)) + (await this.oneOffs.wakeWaitingForCustomer(now, customerId));
    // A charge whose dunning is over and that a live recovery link asks the customer to pay is tried now, as an operator's
    // retry is (the card networks' cap kept): the customer is there with a new card. Charges still being dunned were woken above.
    let retried = 0;
    for (const chargeId of await this.recoveryLinks.chargesWithLiveLinks(customerId)) {
      if (await this.charges.requeueForRetry(chargeId, now, true)) retried++;
    }
    return woken + retried;
  }

  /** The backlog gauges, the pass counted and logged. */
  private async endPass(now: Date, summary: BillingRunSummary): Promise<void> {
    await this.updateBacklogGauges(now);
    this.metrics.passes.inc();
    this.logger.log({ ...summary, at: now.toISOString() }, 'Billing pass finished');
  }

  /**
   * Works every charge due now (new periods, retries, outcomes still open, claims of a process that died) on
   * the engine's pool, without materializing new periods: the runner calls this every second or so.
   */
  async drainDueCharges(concurrency: number): Promise<number> {
    await this.clock.refresh();
    const summary = emptySummary();
    await this.workDueCharges(this.clock.now(), concurrency, summary);
    return summary.due;
  }

  /** With `progress`, a claim that finds nothing while the pass is still making charges waits for its next batch. */
  private async workDueCharges(now: Date, concurrency: number, summary: BillingRunSummary, progress?: MaterializeProgress): Promise<void> {
    const work = async (claim: ClaimedCharge) => {
      const result = await this.processor.processAhead(claim);
      if (typeof result === 'string') return this.count(summary, result, claim.row.id);
      // The settling write goes on while this worker's provider slot takes its next charge.
      return { tail: result.tail.then((outcome) => this.count(summary, outcome, claim.row.id)) };
    };
    const claim = async (limit: number) => {
      for (;;) {
        // Taken before the claim: a batch committed while it ran may be missing from what it found.
        const mark = progress?.mark;
        const batch = await this.queue.claim(limit, { dueAt: now });
        // What the batch's charges need is read in one go, before they are worked.
        if (batch.length > 0) {
          await this.processor.prepare(batch);
          return batch;
        }
        if (!progress || !mark || mark.finished || this.shutdown.isShuttingDown) return batch;
        await progress.after(mark);
      }
    };
    summary.due += await this.queue.drain(claim, work, { concurrency: chargeWorkersFor(concurrency), batchSize: this.tuning.claimBatchSize, stopping: () => this.shutdown.isShuttingDown });
  }

  /**
   * The pass's counts once the payments in flight are final, or once `paymentPollMs` (the wait one worker gives a
   * payment) has passed: the admin route answers when the work it took is settled or scheduled. In flight are the
   * payments this pass left to the provider's event (or the next poll), and the charges the engine's loop was
   * working when the pass ended (a retry that fell due when the test clock moved may be taken there first), so a
   * status read right after the answer is final. Only this pass's own charges change the counts.
   */
  async whenSettled(pass: BillingRunSummary): Promise<BillingRunSummary> {
    const summary = { ...pass, awaitingProvider: undefined };
    const own = new Set(pass.awaitingProvider ?? []);
    const waiting = new Set([...own, ...(await this.charges.inFlightIds(IN_FLIGHT_WAIT_LIMIT))]);
    const settled = async () => {
      for (const { id, status } of await this.charges.statusesOf([...waiting])) {
        if (status === 'processing' || status === 'pending') continue;
        waiting.delete(id);
        if (!own.has(id)) continue;
        summary.unknown--;
        if (status === 'succeeded') summary.succeeded++;
        else if (status === 'retrying' || status === 'failed') summary.declined++;
      }
      return waiting.size === 0 || this.shutdown.isShuttingDown;
    };
    if (waiting.size > 0 && !this.shutdown.isShuttingDown) await pollUntil(settled, { clock: this.realClock, forMs: this.tuning.paymentPollMs, firstMs: 20, capMs: 500 });
    return summary;
  }

  private count(summary: BillingRunSummary, outcome: ChargeOutcome, chargeId: string): void {
    if (outcome === 'succeeded') summary.succeeded++;
    else if (outcome === 'declined' || outcome === 'failed') summary.declined++;
    else if (outcome === 'unknown' || outcome === 'pending') summary.unknown++;
    // Nothing is at the provider: the charge is due again at a time the pass answers without waiting for it.
    else if (outcome === 'waiting_allowed_hours') summary.waitingForAllowedHours++;
    else if (outcome === 'waiting_attempt_cap') summary.waitingForAttemptCap++;
    if (outcome === 'pending') (summary.awaitingProvider ??= []).push(chargeId);
  }

  private async updateBacklogGauges(now: Date): Promise<void> {
    const { count, oldest } = await this.charges.backlog(now);
    this.metrics.dueBacklog.set(count);
    this.metrics.oldestDueAgeSeconds.set(oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0);
    this.metrics.subscriptionsInError.set(await this.subscriptions.countInBillingError());
  }
}
