import { LeasedQueues } from '../work/leased-queues.service';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { RetentionService } from '../common/retention/retention.service';
import { ShutdownSignal } from '../common/shutdown-signal';
import { Claim, LeasedQueue } from '../work/leased-queue';
import { WorkRunnerService } from '../work/work-runner.service';
import { ProviderEvent } from './provider-event.entity';
import { ApplyOutcome, ProviderEventKind, ProviderEventRouter } from './provider-event-router.service';
import { ProviderEventsRepository } from './provider-events.repository';

export const PROVIDER_EVENTS_QUEUE = 'provider-events';

const KIND_OF_TOPIC: Record<string, ProviderEventKind> = {
  InvoicesTopic: 'invoice',
  CustomersTopic: 'customer',
  WithdrawalTopic: 'withdrawal',
  DestinationTopic: 'destination',
};

/** Invoice events about a refund (and the payment refunded whole) go to the refunds' handler, the rest to billing's. */
const REFUND_EVENT = /^(Refund|PaymentRefunded$)/;

/** An object busy with its own step is asked again this soon, for at most this many times. */
const BUSY_RETRY_MS = 1_000;
const MAX_BUSY_RETRIES = 120;
/** An object not recorded yet (its create's answer is still being written) is looked for a few more times. */
const UNKNOWN_RETRY_MS = 5_000;
const MAX_UNKNOWN_RETRIES = 3;
const CONCURRENCY = 4;
const RETENTION_DAYS = 30;

/**
 * Applies stored provider events on the work engine: each goes to the domain that owns its object, which moves
 * the same state machine as polling (it reads the provider now instead of at its next poll). An event about an
 * object we do not know is kept as `unknown_object`: polling covers it.
 */
@Injectable()
export class ProviderEventApplierService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ProviderEventApplierService.name);
  private readonly queue: LeasedQueue<ProviderEvent>;

  constructor(
    private readonly events: ProviderEventsRepository,
    private readonly router: ProviderEventRouter,
    private readonly runner: WorkRunnerService,
    private readonly shutdown: ShutdownSignal,
    private readonly retention: RetentionService,
    private readonly clock: SystemClock,
    queues: LeasedQueues,
  ) {
    this.queue = queues.create<ProviderEvent>({
      name: PROVIDER_EVENTS_QUEUE,
      entity: ProviderEvent,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'database',
      hasNotBefore: false,
    });
  }

  onApplicationBootstrap(): void {
    this.runner.start(PROVIDER_EVENTS_QUEUE, () => this.applyDue());
    this.retention.register('applied provider events', () => this.events.pruneApplied(RETENTION_DAYS));
  }

  /** Applies every due event; answers how many it worked. */
  applyDue(): Promise<number> {
    return this.queue.drain(
      (limit) => this.queue.claim(limit),
      (claim) => this.apply(claim),
      { concurrency: CONCURRENCY, batchSize: CONCURRENCY * 4, stopping: () => this.shutdown.isShuttingDown },
    );
  }

  private async apply(claim: Claim<ProviderEvent>): Promise<void> {
    const event = claim.row;
    let outcome: ApplyOutcome;
    try {
      const kind = event.topic === 'InvoicesTopic' && REFUND_EVENT.test(event.eventType) ? 'refund' : KIND_OF_TOPIC[event.topic];
      outcome = await this.router.route({ kind, eventType: event.eventType, objectId: event.objectId, payload: event.payload });
    } catch (error) {
      this.logger.warn({ err: error, eventType: event.eventType, objectId: event.objectId }, 'Applying a provider event failed; trying again shortly');
      return this.retryLater(claim, BUSY_RETRY_MS * 5);
    }
    if (outcome === 'busy' && event.attempts < MAX_BUSY_RETRIES) return this.retryLater(claim, BUSY_RETRY_MS);
    if (outcome === 'unknown_object' && event.attempts < MAX_UNKNOWN_RETRIES) return this.retryLater(claim, UNKNOWN_RETRY_MS);
    // Applying it is over (`outcome` says how); a lost lease (LeasedQueue.lost) drops the step.
    await this.queue.write(claim, { appliedAt: this.clock.now(), outcome, attempts: claim.row.attempts + 1 }, { release: true, dueInMs: null });
  }

  /** Applied again after `delayMs` (its object was busy or not recorded yet). */
  private retryLater(claim: Claim<ProviderEvent>, delayMs: number): Promise<void> {
    return this.queue.write(claim, { attempts: claim.row.attempts + 1 }, { release: true, dueInMs: delayMs });
  }
}
