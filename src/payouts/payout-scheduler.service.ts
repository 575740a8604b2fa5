import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { WorkRunnerService } from '../work/work-runner.service';
import { PayoutProcessorService } from './payout-processor.service';
import { PAYOUTS_QUEUE } from './payout-queue';

/** The name of the engine's loop that works payouts and follows destinations: the queue's own (payout-queue.ts). */
export { PAYOUTS_QUEUE };

/**
 * Keeps payouts worked when SCHEDULER_ENABLED, on the engine's runner: a run whenever payouts are due
 * (new ones, polls, backoffs that ended, claims of a process that died), and at once when new ones arrive.
 */
@Injectable()
export class PayoutSchedulerService implements OnApplicationBootstrap {
  constructor(
    private readonly runner: WorkRunnerService,
    private readonly processor: PayoutProcessorService,
  ) {}

  onApplicationBootstrap(): void {
    this.runner.start(PAYOUTS_QUEUE, async () => (await this.processor.runOnce()).steps);
  }

  /** New payouts were accepted: work them now rather than at the next poll. */
  kick(): void {
    this.runner.kick(PAYOUTS_QUEUE);
  }
}
