import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { WorkRunnerService } from '../work/work-runner.service';
import { RefundProcessorService } from './refund-processor.service';
import { REFUNDS_QUEUE } from './refund-queue';

/**
 * Keeps card refunds worked when SCHEDULER_ENABLED, on the engine's runner: a run whenever refunds are due (new ones,
 * polls, backoffs that ended, claims of a process that died), and at once when new ones arrive.
 */
@Injectable()
export class RefundSchedulerService implements OnApplicationBootstrap {
  constructor(
    private readonly runner: WorkRunnerService,
    private readonly processor: RefundProcessorService,
  ) {}

  onApplicationBootstrap(): void {
    this.runner.start(REFUNDS_QUEUE, async () => (await this.processor.runOnce()).steps);
  }

  /** A card refund was accepted, or one ended and the next of its charge may go: work now rather than at the next poll. */
  kick(): void {
    this.runner.kick(REFUNDS_QUEUE);
  }
}
