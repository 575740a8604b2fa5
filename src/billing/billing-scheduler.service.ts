import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { ShutdownSignal } from '../common/shutdown-signal';
import { CUSTOMER_SYNC_QUEUE, CustomerSyncService } from '../customers/customer-sync.service';
import { BillingRunService, BillingRunSummary } from './billing-run.service';
import { WorkRunnerService } from '../work/work-runner.service';

const JOB_NAME = 'billing-pass';
/** The engine's loop that works due charges between passes. */
export const CHARGES_QUEUE = 'charges';

const SYNC_BATCH = 100;

/**
 * Runs the billing work on its own schedule (BILLING_INTERVAL_MS) when SCHEDULER_ENABLED: follow
 * customers, then one billing pass. Passes never overlap within a process; on shutdown no new pass
 * starts and the one in flight is awaited.
 */
@Injectable()
export class BillingSchedulerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BillingSchedulerService.name);
  private running: Promise<BillingRunSummary> | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly billing: BillingRunService,
    private readonly customerSync: CustomerSyncService,
    private readonly shutdown: ShutdownSignal,
    private readonly runner: WorkRunnerService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.registry.addInterval(JOB_NAME, setInterval(() => void this.tick(), this.config.billingIntervalMs));
    setImmediate(() => void this.tick());
    // Between passes, the engine keeps working whatever falls due: retries and backoffs that ended, open
    // outcomes, and the claims of a process that died, which resume within seconds rather than a pass later.
    this.runner.start(CHARGES_QUEUE, () => this.billing.drainDueCharges(this.config.providerMaxConcurrency));
    this.runner.start(CUSTOMER_SYNC_QUEUE, async () => (await this.customerSync.syncDue(SYNC_BATCH)).claimed);
  }

  /** One full pass now, or the one already running (the admin endpoint and the timer share it). */
  runNow(): Promise<BillingRunSummary> {
    if (!this.running) {
      this.running = this.work().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.registry.doesExist('interval', JOB_NAME)) this.registry.deleteInterval(JOB_NAME);
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.running || this.shutdown.isShuttingDown) return;
    try {
      await this.runNow();
    } catch (error) {
      this.logger.error({ err: error }, 'Billing pass failed; the next tick tries again');
    }
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
