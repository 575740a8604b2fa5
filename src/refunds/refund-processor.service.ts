import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import { EventsService } from '../events/events.service';
import { failureCodePath } from '../gateway/failure-code';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { Refund as ProviderRefund } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { WebhookHealthService } from '../provider-webhooks/webhook-health.service';
import { backoffDelayMs } from '../work/backoff';
import { LeaseLostError } from '../work/lease-lost.error';
import { WorkRunnerService } from '../work/work-runner.service';
import { WorkTuning } from '../work/work-tuning';
import { remainingCart } from './refund-cart';
import { RefundMetricsService } from './refund-metrics.service';
import { ClaimedRefund, REFUND_QUEUE, RefundQueue, REFUNDS_QUEUE } from './refund-queue';
import { toRefundResponse } from './refund-response';
import { RefundSubmissionService } from './refund-submission.service';
import { RefundTuning } from './refund-tuning';
import type { Refund } from './refund.entity';
import { RefundsRepository } from './refunds.repository';

export interface RefundRunSummary {
  /** Claimed refund steps worked on. */
  steps: number;
  succeeded: number;
  failed: number;
}

export type FinalOutcome = 'succeeded' | 'failed';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Works card refunds through their life: wait for the charge's earlier refund to end (the provider takes one refund of a
 * payment at a time), fix the captured payment and the cart that stays paid, create the refund with its one externalID,
 * follow it until it succeeds or fails.
 *
 * Exactly once: the externalID is fixed when the refund is accepted and the body is fixed before the first create, so a
 * repeat after a fault, a crash, or on another replica is the very same request and names the same refund; a refund
 * fails only on a definite refusal, never on an unknown outcome. Claims are leases with fencing: a worker that lost its
 * lease cannot write.
 */
@Injectable()
export class RefundProcessorService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RefundProcessorService.name);
  private running: Promise<RefundRunSummary> | undefined;
  private stopping = false;

  constructor(
    // Refunds have no business calendar: their work runs on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    // Only for the times the API shows (completedAt, updatedAt): the billing clock.
    private readonly businessClock: Clock,
    private readonly tuning: RefundTuning,
    private readonly workTuning: WorkTuning,
    private readonly gateway: ProcessingGateway,
    @Inject(REFUND_QUEUE) private readonly queue: RefundQueue,
    private readonly refunds: RefundsRepository,
    private readonly submission: RefundSubmissionService,
    private readonly events: EventsService,
    private readonly metrics: RefundMetricsService,
    private readonly webhooks: WebhookHealthService,
    private readonly runner: WorkRunnerService,
    private readonly shutdown: ShutdownSignal,
  ) {}

  /** Works until nothing is due, `concurrency` refunds at a time; a call while a run is going joins that run. */
  runOnce(): Promise<RefundRunSummary> {
    if (!this.running) {
      this.running = this.work().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  /** Stops claiming; the steps in flight finish (polling ones leave early) before shutdown goes on. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  private get halted(): boolean {
    return this.stopping || this.shutdown.isShuttingDown;
  }

  private async work(): Promise<RefundRunSummary> {
    const summary: RefundRunSummary = { steps: 0, succeeded: 0, failed: 0 };
    // Another replica may have moved the shared test clock: the times this run writes for the API read it fresh.
    await this.businessClock.refresh();
    const dueAt = this.clock.now();
    summary.steps = await this.queue.drain((limit) => this.queue.claim(limit, { dueAt }), (claim) => this.step(claim, summary), {
      concurrency: this.tuning.concurrency,
      batchSize: this.tuning.claimBatchSize,
      stopping: () => this.halted,
    });
    return summary;
  }

  private async step(claim: ClaimedRefund, summary: RefundRunSummary): Promise<void> {
    try {
      const outcome = await this.advance(claim);
      if (outcome === 'succeeded') summary.succeeded++;
      if (outcome === 'failed') summary.failed++;
    } catch (error) {
      // A lost lease ends the step as it is (the engine's rule, LeasedQueue.lost): the drain drops it.
      if (error instanceof LeaseLostError) throw error;
      await this.technicalFailure(claim, error).catch((e: unknown) => {
        if (e instanceof LeaseLostError) throw e;
        this.logger.error({ err: e }, `Refund ${claim.row.id}: could not record a technical failure`);
      });
    }
  }

  /** The refund's due step and those after it, to its end or its next wait; answers the outcome once it is final. */
  private async advance(claim: ClaimedRefund): Promise<FinalOutcome | undefined> {
    const refund = claim.row;
    if (refund.step === 'prepare') {
      if (await this.refunds.earlierOpen(refund.chargeId, refund.number)) {
        await this.queue.write(claim, { nextAttemptAt: this.later(this.tuning.turnWaitMs) }, { release: true });
        return undefined;
      }
      const failed = await this.prepare(claim);
      if (failed) return failed;
    }
    let justCreated = false;
    if (refund.step === 'create') {
      const made = await this.submission.submit(claim);
      if (made === 'wait') {
        await this.queue.write(claim, { nextAttemptAt: this.later(this.tuning.turnWaitMs) }, { release: true });
        return undefined;
      }
      if ('failureCode' in made) return this.finish(claim, 'failed', { failureCode: made.failureCode });
      const now = this.clock.now();
      await this.queue.write(claim, { providerRefundId: made.refund.id, step: 'await', submittedAt: now, technicalFailures: 0, notBefore: null });
      if (made.refund.status !== 'pending') return this.settle(claim, made.refund);
      justCreated = true;
    }
    if (refund.step === 'await') return this.follow(claim, justCreated);
    await this.queue.write(claim, { nextAttemptAt: null }, { release: true });
    return undefined;
  }

  /**
   * Fixes what the create will send, before it is first sent: the invoice's captured payment, and the cart that stays
   * paid once the charge's earlier card refunds (all final by now) and this one are taken from it. Answers `failed`
   * when there is no captured payment to refund.
   */
  private async prepare(claim: ClaimedRefund): Promise<FinalOutcome | undefined> {
    const refund = claim.row;
    const invoiceId = refund.providerInvoiceId as string;
    const [invoice, payments] = await Promise.all([this.gateway.getInvoice(invoiceId), this.gateway.getPayments(invoiceId)]);
    const payment = payments.find((p) => p.status === 'captured' || p.status === 'refunded');
    if (!payment) return this.finish(claim, 'failed', { failureCode: 'rejected:no_captured_payment' });
    const before = await this.refunds.succeededOnCardBefore(refund.chargeId, refund.number);
    const cart = remainingCart(invoice.cart, payment.amount - before - refund.amount);
    await this.queue.write(claim, { providerPaymentId: payment.id, cart, step: 'create' });
    return undefined;
  }

  /**
   * Reads the refund until it is final, for up to inlinePollMs; then leaves it for a later pass. With the provider's
   * refund webhooks registered, a refund just made is left to its event, read again after a safety net.
   */
  private async follow(claim: ClaimedRefund, justCreated: boolean): Promise<FinalOutcome | undefined> {
    const refund = claim.row;
    const eventsExpected = this.webhooks.expectsEvents('refund');
    if (eventsExpected && justCreated) return this.waitForEvent(claim);
    const started = performance.now();
    let delay = justCreated ? this.tuning.pollDelayMs : 0;
    for (;;) {
      if (delay > 0) await sleep(delay);
      const found = await this.gateway.getRefund(refund.providerInvoiceId as string, refund.providerPaymentId as string, refund.providerRefundId as string);
      if (found.status !== 'pending') return this.settle(claim, found);
      if (eventsExpected) return this.waitForEvent(claim);
      delay = Math.min(Math.max(delay * 2, this.tuning.pollDelayMs), this.tuning.maxPollDelayMs);
      if (this.halted || performance.now() - started + delay > this.tuning.inlinePollMs) {
        const age = refund.submittedAt ? this.clock.now().getTime() - refund.submittedAt.getTime() : 0;
        // Old refunds are read less often: a quarter of their age, within the poll bounds.
        const wait = Math.min(Math.max(delay, age / 4), this.tuning.maxPollDelayMs);
        await this.queue.write(claim, { nextAttemptAt: this.later(wait), technicalFailures: 0, notBefore: null }, { release: true });
        return undefined;
      }
    }
  }

  private async waitForEvent(claim: ClaimedRefund): Promise<undefined> {
    await this.queue.write(claim, { nextAttemptAt: this.later(this.tuning.eventSafetyNetMs) }, { release: true });
    return undefined;
  }

  private settle(claim: ClaimedRefund, found: ProviderRefund): Promise<FinalOutcome> {
    if (found.status === 'succeeded') return this.finish(claim, 'succeeded', { providerRefundId: found.id });
    return this.finish(claim, 'failed', { providerRefundId: found.id, failureCode: failureCodePath(found.error) });
  }

  /**
   * The final state and its merchant event (refund.succeeded or refund.failed, the refund as GET shows it, built from
   * the row this process holds) in one transaction, only while it holds the refund; then the charge's next card refund
   * may go.
   */
  private async finish(claim: ClaimedRefund, outcome: FinalOutcome, details: { providerRefundId?: string; failureCode?: string }): Promise<FinalOutcome> {
    const held = claim.row;
    const shownNow = this.businessClock.now();
    const final = {
      status: outcome,
      step: 'done' as const,
      providerRefundId: details.providerRefundId ?? held.providerRefundId,
      failureCode: details.failureCode ?? null,
      completedAt: shownNow,
      updatedAt: shownNow,
      nextAttemptAt: null,
      notBefore: null,
    };
    const object = toRefundResponse({ ...held, ...final } as Refund);
    await this.refunds.transaction(async (em) => {
      await this.queue.write(claim, final, { release: true, em });
      await this.events.record(em, { type: `refund.${outcome}`, data: { object } });
    });
    this.metrics.refunds.inc({ to: 'card', outcome });
    if (outcome === 'failed') this.logger.log(`Refund ${held.id} of charge ${held.chargeId} failed: ${final.failureCode ?? 'unknown'}`);
    const next = await this.queue.wake(this.refunds.nextOfCharge(held.chargeId), this.clock.now()).catch(() => 'none' as const);
    if (next === 'woken') this.runner.kick(REFUNDS_QUEUE);
    return outcome;
  }

  /** Leaves the refund as it is, to be tried again (the same request) after a growing pause in real time. */
  private async technicalFailure(claim: ClaimedRefund, error: unknown): Promise<void> {
    const failures = claim.row.technicalFailures + 1;
    const backoffMs = backoffDelayMs(failures, this.workTuning.backoffMs, this.workTuning.maxBackoffMs);
    const kind = error instanceof ProviderError ? error.kind : 'internal';
    this.metrics.technicalFailures.inc({ kind });
    if (error instanceof ProviderError) {
      this.logger.warn(`Refund ${claim.row.id} (${claim.row.step}): ${error.message}; trying again in ${backoffMs} ms`);
    } else {
      this.logger.error({ err: error }, `Refund ${claim.row.id} (${claim.row.step}): unexpected error; trying again in ${backoffMs} ms`);
    }
    await this.queue.write(claim, { technicalFailures: failures }, { release: true, notBeforeMs: backoffMs });
  }

  private later(ms: number): Date {
    return new Date(this.clock.now().getTime() + ms);
  }
}
