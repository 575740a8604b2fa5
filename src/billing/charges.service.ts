import { ConflictException, Inject, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { pollUntil } from '../common/clock/poll-until';
import { Page } from '../common/http/pagination';
import { ApplyOutcome, ProviderEventRouter, ReceivedProviderEvent } from '../provider-webhooks/provider-event-router.service';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { SubscriptionNoticesService } from '../subscriptions/subscription-notices.service';
import { isHeld } from '../work/leased-row';
import { WorkRunnerService } from '../work/work-runner.service';
import { CHARGES_QUEUE } from './billing-scheduler.service';
import { BillingTuning } from './billing-tuning';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeProcessorService } from './charge-processor.service';
import { CHARGE_QUEUE, ChargeQueue } from './charge-queue';
import { ChargesRepository } from './charges.repository';
import { ListChargesQueryDto } from './list-charges-query.dto';
import { RefundableChargesService } from './refundable-charges.service';

/** Between two reads of a charge another worker is attempting for a manual retry, at most. */
const OTHER_WORKER_READ_MS = 200;

/** Events that may settle a payment of the invoice. */
const PAYMENT_EVENTS = new Set(['PaymentCaptured', 'PaymentFailed', 'PaymentCancelled', 'InvoicePaid', 'InvoiceCancelled']);

@Injectable()
export class ChargesService implements OnModuleInit {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly clock: Clock,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly processor: ChargeProcessorService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly providerEvents: ProviderEventRouter,
    private readonly runner: WorkRunnerService,
    private readonly notices: SubscriptionNoticesService,
    private readonly refundable: RefundableChargesService,
    private readonly tuning: BillingTuning,
    private readonly realClock: SystemClock,
  ) {}

  /**
   * A subscription that ends drops its charges with no payment in flight, in the transaction that ends it. Its notices
   * wait while a charge due is unsettled, since its outcome may end it. The provider's payment events make the charge
   * of their invoice read its payment now rather than at its next poll.
   */
  onModuleInit(): void {
    this.lifecycle.onCancel((em, subscriptionId, keepChargeId) => this.charges.cancelOpen(em, subscriptionId, this.clock.now(), keepChargeId));
    this.notices.holdWhile((params, subscriptionId, now) => this.charges.unsettledDueSql(params, subscriptionId, now));
    this.providerEvents.on('invoice', (event) => this.onInvoiceEvent(event));
  }

  private async onInvoiceEvent(event: ReceivedProviderEvent): Promise<ApplyOutcome> {
    if (!PAYMENT_EVENTS.has(event.eventType)) return 'ignored';
    const result = await this.queue.wake(this.charges.ofInvoice(event.objectId), this.clock.now());
    if (result === 'woken') this.runner.kick(CHARGES_QUEUE);
    return result === 'woken' || result === 'settled' ? 'applied' : result === 'none' ? 'unknown_object' : 'busy';
  }

  /** The charge, its attempts and how much of it was refunded. */
  async get(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[]; amountRefunded: number }> {
    const charge = await this.charges.findById(id);
    if (!charge) throw new NotFoundException(`No charge ${id}`);
    const [attempts, refunded] = await Promise.all([this.attempts.ofCharge(id), this.refundable.refundedAmounts([id])]);
    return { charge, attempts, amountRefunded: refunded.get(id) ?? 0 };
  }

  async list(query: ListChargesQueryDto): Promise<{ page: Page<Charge>; attempts: Map<string, ChargeAttempt[]>; refunded: Map<string, number> }> {
    const page = await this.charges.list(query);
    const ids = page.items.map((c) => c.id);
    const [attempts, refunded] = await Promise.all([this.attempts.ofCharges(ids), this.refundable.refundedAmounts(ids)]);
    return { page, attempts, refunded };
  }

  /**
   * Attempts the charge now: refused while it is settled, in flight or canceled. On a charge being dunned the attempt is
   * outside the ladder: it spends no step of it, moves no scheduled attempt, and a decline of it leaves the subscription
   * as it was (see ChargeSettlementService.decline). Refused too when the card network's cap allows no attempt now.
   */
  async retry(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[]; amountRefunded: number }> {
    const now = this.clock.now();
    const attemptsBefore = (await this.attempts.ofCharge(id)).length;
    if (!(await this.charges.requeueForRetry(id, now))) {
      const { charge } = await this.get(id);
      throw new ConflictException(`A ${charge.status} charge cannot be retried now`);
    }
    const [claim] = await this.queue.claim(1, { dueAt: now, onlyId: id });
    // Due again, the charge may be taken first by the engine's own loop (or a replica's): the answer then waits for
    // that worker's attempt, so it tells what the retry did rather than the decline before it.
    const outcome = claim ? await this.processor.process(claim) : undefined;
    if (!claim) await this.anotherWorkersAttempt(id, attemptsBefore, now);
    const after = await this.get(id);
    // The processor put a dunned charge back on its ladder (a one-off back to failed) without an attempt: the card
    // network's cap allows none now.
    const capped = after.charge.dunningStartedAt !== null || (after.charge.kind === 'one_off' && after.charge.step === 'done');
    if (outcome === 'skipped' && after.attempts.length === attemptsBefore && capped && after.charge.status !== 'canceled') {
      throw new ConflictException(
        `No attempt was made: the card has had as many attempts in the last 30 days as the card networks allow. ${after.charge.kind === 'one_off' ? 'The charge stays failed' : 'The ladder goes on as scheduled'}; retry by hand once an attempt leaves the 30 days.`,
      );
    }
    return after;
  }

  /**
   * Waits, at most as long as a worker polls a payment, until the worker that took the retried charge is done with it:
   * the charge no longer leased, with an attempt more than before the retry or moved off `now` (the card networks'
   * cap put it back on its ladder). A charge nobody took yet (claimed and released by a replica in between) is not
   * waited for beyond the deadline either: the answer is then the charge as it stands.
   */
  private async anotherWorkersAttempt(id: string, attemptsBefore: number, requeuedAt: Date): Promise<void> {
    await pollUntil(
      async () => {
        const charge = await this.charges.findById(id);
        if (!charge || isHeld(charge)) return false;
        const movedOn = charge.nextAttemptAt === null || charge.nextAttemptAt.getTime() > requeuedAt.getTime();
        return movedOn || (await this.attempts.ofCharge(id)).length > attemptsBefore;
      },
      { clock: this.realClock, forMs: this.tuning.paymentPollMs, firstMs: 10, capMs: OTHER_WORKER_READ_MS },
    );
  }
}
