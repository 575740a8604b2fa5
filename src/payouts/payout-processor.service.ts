import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import { EventsService } from '../events/events.service';
import { failureCodePath } from '../gateway/failure-code';
import type { Withdrawal } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { WalletGateway } from '../gateway/wallet.gateway';
import { PayoutDestinationsService } from './payout-destinations.service';
import { LeaseLostError } from '../work/lease-lost.error';
import { PayoutMetricsService } from './payout-metrics.service';
import { ClaimedPayout, PAYOUT_QUEUE, PayoutQueue } from './payout-queue';
import { toPayoutResponse } from './payout-responses';
import { PayoutTuning } from './payout-tuning';
import type { Payout } from './payout.entity';
import { PayoutsRepository } from './payouts.repository';
import { backoffDelayMs } from '../work/backoff';
import { WorkTuning } from '../work/work-tuning';

export interface PayoutRunSummary {
  /** Claimed payout steps worked on. */
  steps: number;
  succeeded: number;
  failed: number;
}

type FinalOutcome = 'succeeded' | 'failed';

/** Provider refusals that prove the withdrawal was not made and never will be with this request. */
const DEFINITE_REFUSALS: ReadonlySet<string> = new Set(['invalid_request', 'business_rule', 'not_found']);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Works payouts through their life: wait for the destination, create the withdrawal (operation 13) with the payout's
 * one externalID, follow it (operation 14) until Succeeded or Failed.
 *
 * Exactly once: the externalID is fixed when the payout is made and is the only one ever sent for it, so a repeat
 * after a fault, a crash, or on another replica names the same withdrawal; a payout is failed only on a definite
 * refusal, never on an unknown outcome. Claims are leases with fencing: a worker that lost its lease cannot write.
 */
@Injectable()
export class PayoutProcessorService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(PayoutProcessorService.name);
  private running: Promise<PayoutRunSummary> | undefined;
  private stopping = false;

  constructor(
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    private readonly tuning: PayoutTuning,
    private readonly workTuning: WorkTuning,
    private readonly wallets: WalletGateway,
    private readonly destinations: PayoutDestinationsService,
    @Inject(PAYOUT_QUEUE) private readonly queue: PayoutQueue,
    private readonly metrics: PayoutMetricsService,
    private readonly shutdown: ShutdownSignal,
    // Only for the times the API shows (completedAt, updatedAt, a destination's authorizedAt): the billing clock.
    private readonly businessClock: Clock,
    private readonly payouts: PayoutsRepository,
    private readonly events: EventsService,
  ) {}

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Works until nothing is due, `concurrency` payouts at a time; a call while a run is going joins that run. */
  runOnce(): Promise<PayoutRunSummary> {
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

  private async work(): Promise<PayoutRunSummary> {
    const summary: PayoutRunSummary = { steps: 0, succeeded: 0, failed: 0 };
    // Another replica may have moved the shared test clock: the times this run writes for the API read it fresh.
    await this.businessClock.refresh();
    await this.destinations.followDue().catch((error: unknown) => this.logger.warn({ err: error }, 'Following destinations failed; the next run tries again'));
    const dueAt = this.clock.now();
    summary.steps = await this.queue.drain((limit) => this.queue.claim(limit, { dueAt }), (claim) => this.step(claim, summary), {
      concurrency: this.tuning.concurrency,
      batchSize: this.tuning.claimBatchSize,
      stopping: () => this.halted,
    });
    return summary;
  }

  private async step(claim: ClaimedPayout, summary: PayoutRunSummary): Promise<void> {
    try {
      const outcome = claim.row.status === 'pending' ? await this.submit(claim) : await this.follow(claim, undefined);
      if (outcome === 'succeeded') summary.succeeded++;
      if (outcome === 'failed') summary.failed++;
    } catch (error) {
      // A lost lease ends the step as it is (the engine's rule, LeasedQueue.lost): the drain drops it.
      if (error instanceof LeaseLostError) throw error;
      await this.technicalFailure(claim, error).catch((e: unknown) => {
        if (e instanceof LeaseLostError) throw e;
        this.logger.error({ err: e }, `Payout ${claim.row.id}: could not record a technical failure`);
      });
    }
  }

  /** Status pending: wait for an Authorized destination, then create (or replay) the withdrawal. */
  private async submit(claim: ClaimedPayout): Promise<FinalOutcome | undefined> {
    const payout = claim.row;
    const destination = await this.destinations.current(payout.destinationId);
    if (!destination || destination.providerDestinationId === null || destination.status === 'failed' || destination.status === 'creating') {
      return this.finish(claim, 'failed', { failureCode: 'destination_unavailable' });
    }
    if (destination.status !== 'Authorized') {
      const now = this.clock.now();
      const recheck = destination.nextSyncAt && destination.nextSyncAt > now ? destination.nextSyncAt : new Date(now.getTime() + this.tuning.destinationPollMs);
      await this.queue.write(claim, { nextAttemptAt: recheck }, { release: true });
      return undefined;
    }

    let withdrawal: Pick<Withdrawal, 'id' | 'status' | 'failure'>;
    try {
      // The body is rebuilt from stored values only: a replay must equal the first request for the provider to dedupe
      // it. A referenced payout names only its reference, so a resubmission after a restore sends the same body too.
      withdrawal = await this.wallets.createWithdrawal({
        wallet: payout.walletId,
        destination: destination.providerDestinationId,
        body: { amount: payout.amount, currency: payout.currency },
        externalID: payout.withdrawalExternalId,
        metadata: payout.reference !== null ? { reference: payout.reference } : { payoutId: payout.id },
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === 'business_rule' && /destination unauthori[sz]ed/i.test(error.providerMessage ?? '')) {
        await this.destinations.markUnauthorized(destination.id);
        await this.queue.write(claim, { nextAttemptAt: new Date(this.clock.now().getTime() + this.tuning.destinationPollMs) }, { release: true });
        return undefined;
      }
      if (error.kind === 'conflict') {
        const adopted = await this.adoptWithdrawal(claim, error);
        if (adopted === 'failed') return adopted;
        withdrawal = adopted;
      } else if (DEFINITE_REFUSALS.has(error.kind)) {
        return this.finish(claim, 'failed', { failureCode: refusalCode(error) });
      } else {
        // Unknown outcome, provider down, refused credentials: keep the payout as it is and replay the same request later.
        throw error;
      }
    }

    const now = this.clock.now();
    if (withdrawal.status !== 'Pending') return this.settle(claim, withdrawal);
    await this.queue.write(claim, { status: 'processing', providerWithdrawalId: withdrawal.id, submittedAt: now, technicalFailures: 0, notBefore: null });
    return this.follow(claim, this.tuning.pollDelayMs);
  }

  /**
   * The provider holds a withdrawal under this payout's externalID, made with another body (its reference submitted
   * again after a restore, to a destination made again): read it back; it is this payout's when it moves the same
   * money. Otherwise a person looks, and nothing is sent.
   */
  private async adoptWithdrawal(claim: ClaimedPayout, conflict: ProviderError): Promise<Withdrawal | 'failed'> {
    const payout = claim.row;
    const found = conflict.conflictingId
      ? await this.wallets.getWithdrawal(conflict.conflictingId)
      : await this.wallets.getWithdrawalByExternalId(payout.withdrawalExternalId);
    if (found.body.amount !== payout.amount || found.body.currency !== payout.currency) {
      this.logger.error(
        `Payout ${payout.id}: the provider's withdrawal ${found.id} under this externalID moves ${found.body.amount} ${found.body.currency}, not ${payout.amount} ${payout.currency}; nothing sent`,
      );
      await this.finish(claim, 'failed', { failureCode: 'withdrawal_conflict:amount_differs' });
      return 'failed';
    }
    this.metrics.adoptedWithdrawals.inc();
    this.logger.warn(`Payout ${payout.id}: the provider already holds withdrawal ${found.id} under this externalID (reference ${payout.reference ?? 'none'}); following it`);
    return found;
  }

  /**
   * Status processing: read the withdrawal until it is final, for up to inlinePollMs; then leave it for a later pass.
   * `firstDelayMs` is the wait before the first read (a withdrawal just made is still Pending).
   */
  private async follow(claim: ClaimedPayout, firstDelayMs: number | undefined): Promise<FinalOutcome | undefined> {
    const withdrawalId = claim.row.providerWithdrawalId as string;
    const started = performance.now();
    let delay = firstDelayMs ?? 0;
    for (;;) {
      if (delay > 0) await sleep(delay);
      const withdrawal = await this.wallets.getWithdrawal(withdrawalId);
      if (withdrawal.status !== 'Pending') return this.settle(claim, withdrawal);
      delay = Math.min(Math.max(delay * 2, this.tuning.pollDelayMs), this.tuning.maxPollDelayMs);
      if (this.halted || performance.now() - started + delay > this.tuning.inlinePollMs) {
        const now = this.clock.now();
        const age = claim.row.submittedAt ? now.getTime() - claim.row.submittedAt.getTime() : 0;
        // Old withdrawals are read less often: a quarter of their age, within the poll bounds.
        const wait = Math.min(Math.max(delay, age / 4), this.tuning.maxPollDelayMs);
        await this.queue.write(claim, { nextAttemptAt: new Date(now.getTime() + wait), technicalFailures: 0, notBefore: null }, { release: true });
        return undefined;
      }
    }
  }

  private settle(claim: ClaimedPayout, withdrawal: Pick<Withdrawal, 'id' | 'status' | 'failure'>): Promise<FinalOutcome> {
    if (withdrawal.status === 'Succeeded') return this.finish(claim, 'succeeded', { providerWithdrawalId: withdrawal.id });
    return this.finish(claim, 'failed', { providerWithdrawalId: withdrawal.id, failureCode: failureCodePath(withdrawal.failure) });
  }

  /**
   * The final state and its merchant event (payout.succeeded or payout.failed, the payout as GET shows it, built from
   * the row this process holds) in one statement, only while it holds the payout.
   */
  private async finish(claim: ClaimedPayout, outcome: FinalOutcome, details: { providerWithdrawalId?: string; failureCode?: string }): Promise<FinalOutcome> {
    const now = this.clock.now();
    const shownNow = this.businessClock.now();
    const held = claim.row;
    const final = {
      status: outcome,
      providerWithdrawalId: details.providerWithdrawalId ?? held.providerWithdrawalId,
      submittedAt: details.providerWithdrawalId ? (held.submittedAt ?? now) : held.submittedAt,
      failureCode: details.failureCode ?? null,
      completedAt: shownNow,
      updatedAt: shownNow,
    };
    const object = toPayoutResponse({ ...held, ...final } as Payout);
    const event = this.events.recordOverSql('p', { type: `payout.${outcome}`, data: { object } }, {});
    if (!(await this.payouts.finishFenced(held.id, claim.fence, final, [event]))) this.queue.lost(claim);
    Object.assign(held, final, { nextAttemptAt: null, notBefore: null });
    this.metrics.payouts.inc({ outcome });
    if (outcome === 'failed') this.logger.log(`Payout ${claim.row.id} failed: ${details.failureCode ?? 'unknown'}`);
    return outcome;
  }

  /** Leaves the payout as it is, to be tried again (the same request) after a growing pause in real time. */
  private async technicalFailure(claim: ClaimedPayout, error: unknown): Promise<void> {
    const failures = claim.row.technicalFailures + 1;
    const backoffMs = backoffDelayMs(failures, this.workTuning.backoffMs, this.workTuning.maxBackoffMs);
    const kind = error instanceof ProviderError ? error.kind : 'internal';
    this.metrics.technicalFailures.inc({ kind });
    if (error instanceof ProviderError) {
      this.logger.warn(`Payout ${claim.row.id} (${claim.row.status}): ${error.message}; trying again in ${backoffMs} ms`);
    } else {
      this.logger.error({ err: error }, `Payout ${claim.row.id} (${claim.row.status}): unexpected error; trying again in ${backoffMs} ms`);
    }
    await this.queue.write(claim, { technicalFailures: failures }, { release: true, notBeforeMs: backoffMs });
  }
}

/** The failure code kept for a provider refusal of the withdrawal create. */
function refusalCode(error: ProviderError): string {
  const reason = (error.code ?? error.providerMessage ?? `http_${error.httpStatus ?? 'error'}`)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `rejected:${reason}`.slice(0, 200);
}
