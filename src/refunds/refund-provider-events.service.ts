import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { ApplyOutcome, ProviderEventRouter } from '../provider-webhooks/provider-event-router.service';
import { WorkRunnerService } from '../work/work-runner.service';
import { REFUND_QUEUE, RefundQueue, REFUNDS_QUEUE } from './refund-queue';
import { RefundsRepository } from './refunds.repository';

/** The refund events that may settle a refund: read the provider now rather than at the next poll. */
const SETTLING = new Set(['RefundCreated', 'RefundSucceeded', 'RefundFailed', 'PaymentRefunded']);

/**
 * The provider's refund webhooks: an event about an invoice makes its refunds still pending read the provider now. The
 * event's content is never trusted: the refund is read as a poll would read it.
 */
@Injectable()
export class RefundProviderEventsService implements OnModuleInit {
  constructor(
    private readonly router: ProviderEventRouter,
    private readonly refunds: RefundsRepository,
    private readonly runner: WorkRunnerService,
    @Inject(REFUND_QUEUE) private readonly queue: RefundQueue,
    private readonly clock: SystemClock,
  ) {}

  onModuleInit(): void {
    this.router.on('refund', async (event): Promise<ApplyOutcome> => {
      if (!SETTLING.has(event.eventType)) return 'ignored';
      const result = await this.queue.wake(this.refunds.ofInvoice(event.objectId), this.clock.now());
      if (result === 'woken') this.runner.kick(REFUNDS_QUEUE);
      return result === 'woken' || result === 'settled' ? 'applied' : result === 'none' ? 'unknown_object' : 'busy';
    });
  }
}
