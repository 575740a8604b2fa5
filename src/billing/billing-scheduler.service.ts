import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { ShutdownSignal } from '../common/shutdown-signal';
import { CardBoundNotifierService } from '../customers/card-bound-notifier.service';
import { CustomerSyncService } from '../customers/customer-sync.service';
import { BillingRunService, BillingRunSummary } from './billing-run.service';
import { CHARGES_QUEUE } from './charge-queue';
import { WorkRunnerService } from '../work/work-runner.service';

const JOB_NAME = 'billing-pass';
/** The name of the engine's loop that works due charges between passes: the queue's own (charge-queue.ts). */
export { CHARGES_QUEUE };

const SYNC_BATCH = 100;

/**
 * Billing's schedule when SCHEDULER_ENABLED: every BILLING_INTERVAL_MS the timer makes due periods into charges and
 * wakes the charge queue, whose own loop on the engine works them (and whatever else falls due: retries, backoffs
 * that ended, open outcomes, the claims of a process that died). The customers' follower runs its own loop. The
 * admin's run (runNow) is a whole pass whose counts it answers. A card bound wakes what waited for one at once. Passes never overlap within a process; on shutdown
 * no new one starts and the one in flight is awaited.
 */
@Injectable()
export class BillingSchedulerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BillingSchedulerService.name);
  private running: Promise<BillingRunSummary> | undefined;
  /** The timer's pass under way (it never rejects). */
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly billing: BillingRunService,
    private readonly customerSync: CustomerSyncService,
    private readonly shutdown: ShutdownSignal,
    private readonly runner: WorkRunnerService,
    private readonly cardBound: CardBoundNotifierService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.registry.addInterval(JOB_NAME, setInterval(() => void this.tick(), this.config.billingIntervalMs));
    setImmediate(() => void this.tick());
    this.runner.start(CHARGES_QUEUE, () => this.billing.drainDueCharges(this.config.providerMaxConcurrency));
    // A customer who fixes their card is charged while they are still on the page, not at the next pass.
    this.cardBound.onCardBound(async (customerId) => {
      if ((await this.billing.wakeForNewCard(customerId)) > 0) this.runner.kick(CHARGES_QUEUE);
    });
  }

  /** One full pass now, or the one already running (after the timer's, should one be under way). */
  runNow(): Promise<BillingRunSummary> {
    if (!this.running) {
      this.running = (async () => {
        await this.ticking;
        return this.work();
      })().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.registry.doesExist('interval', JOB_NAME)) this.registry.deleteInterval(JOB_NAME);
    await this.ticking;
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.running || this.shutdown.isShuttingDown) return;
    if (this.ticking) return;
    this.ticking = this.billing
      .materializeDue(() => this.runner.kick(CHARGES_QUEUE))
      .then(() => this.runner.kick(CHARGES_QUEUE))
      .catch((error: unknown) => this.logger.error({ err: error }, 'Billing pass failed; the next tick tries again'))
      .finally(() => {
        this.ticking = undefined;
      });
    await this.ticking;
  }

  private async work(): Promise<BillingRunSummary> {
    // Follow customers first, so a card bound since the last pass is charged in this one.
    for (let round = 0; round < 20 && !this.shutdown.isShuttingDown; round++) {
      const { claimed } = await this.customerSync.syncDue(SYNC_BATCH);
      if (claimed < SYNC_BATCH) break;
    }
    return this.billing.runPass(this.config.providerMaxConcurrency);
  }
}
