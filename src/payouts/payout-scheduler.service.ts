import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { SystemClock } from '../common/clock/system-clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import { AppConfig } from '../config/app-config';
import { PayoutProcessorService } from './payout-processor.service';
import { PayoutQueueService } from './payout-queue.service';

const INTERVAL_NAME = 'payouts-pass';
const FOLLOW_UP_NAME = 'payouts-follow-up';
/** Floor of the follow-up timer, so a payout due "now" in a tight loop does not spin the process. */
const MIN_FOLLOW_UP_MS = 20;

/**
 * Runs the payout processor when SCHEDULER_ENABLED: every BILLING_INTERVAL_MS, right after new payouts are
 * accepted, and when the earliest open payout falls due before the next interval. Runs never overlap within a
 * process; on shutdown no new run starts and the one in flight is awaited (by the processor).
 */
@Injectable()
export class PayoutSchedulerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PayoutSchedulerService.name);
  private stopped = false;
  /** New work arrived while a run was going: run again when it ends. */
  private rerun = false;

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly processor: PayoutProcessorService,
    private readonly queue: PayoutQueueService,
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    private readonly shutdown: ShutdownSignal,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.registry.addInterval(INTERVAL_NAME, setInterval(() => this.kick(), this.config.billingIntervalMs));
    setImmediate(() => this.kick());
  }

  /** Starts a run now unless one is going (then it runs again after). A no-op when the scheduler is off. */
  kick(): void {
    if (!this.config.schedulerEnabled || this.stopped || this.shutdown.isShuttingDown) return;
    if (this.processor.isRunning) {
      this.rerun = true;
      return;
    }
    void this.run();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.registry.doesExist('interval', INTERVAL_NAME)) this.registry.deleteInterval(INTERVAL_NAME);
    if (this.registry.doesExist('timeout', FOLLOW_UP_NAME)) this.registry.deleteTimeout(FOLLOW_UP_NAME);
  }

  private async run(): Promise<void> {
    try {
      do {
        this.rerun = false;
        await this.processor.runOnce();
      } while (this.rerun && !this.stopped);
      await this.scheduleFollowUp();
    } catch (error) {
      this.logger.error({ err: error }, 'Payout run failed; the next tick tries again');
    }
  }

  /** Payouts left waiting (polls, backoffs) are picked up when due instead of at the next interval. */
  private async scheduleFollowUp(): Promise<void> {
    if (this.stopped) return;
    const waitMs = await this.queue.nextDueInMs(this.clock.now());
    if (this.registry.doesExist('timeout', FOLLOW_UP_NAME)) this.registry.deleteTimeout(FOLLOW_UP_NAME);
    if (waitMs === null || waitMs >= this.config.billingIntervalMs) return;
    const handle = setTimeout(() => {
      if (this.registry.doesExist('timeout', FOLLOW_UP_NAME)) this.registry.deleteTimeout(FOLLOW_UP_NAME);
      this.kick();
    }, Math.max(waitMs, MIN_FOLLOW_UP_MS));
    this.registry.addTimeout(FOLLOW_UP_NAME, handle);
  }
}
