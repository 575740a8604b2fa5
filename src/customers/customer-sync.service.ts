import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { Clock } from '../common/clock/clock';
import { MetricsService } from '../common/metrics/metrics.service';
import { ShutdownSignal } from '../common/shutdown-signal';
import { ProviderError } from '../gateway/provider-error';
import { ProviderEventRouter } from '../provider-webhooks/provider-event-router.service';
import { LeasedQueues } from '../work/leased-queues.service';
import { LeasedQueue } from '../work/leased-queue';
import { WorkRunnerService } from '../work/work-runner.service';
import { CustomerProviderReaderService } from './customer-provider-reader.service';
import { CustomerSyncWriterService } from './customer-sync-writer.service';
import { Customer } from './customer.entity';
import { CustomersRepository, NEXT_SYNC_AT_TEXT } from './customers.repository';
import { RefreshCoalescer } from './refresh-coalescer';
import { RETRY_AFTER_FAILURE_MS } from './sync-schedule';
import type { SyncTarget } from './sync-target';

/** What one read of a customer at the provider ended in; also the `result` label of the metric. */
type SyncOutcome = 'synced' | 'became_ready' | 'provider_retry' | 'not_found' | 'error';

export interface SyncResult {
  outcome: SyncOutcome;
  /** The provider failure behind `provider_retry` / `not_found`. */
  error?: ProviderError;
}

/** Customers claimed per round of the follower's loop. */
const SYNC_BATCH = 100;

/** Customers read at once by one syncDue call (the gateway caps provider calls in flight separately). */
const SYNC_CONCURRENCY = 4;
/** How long shutdown waits for reads in progress before letting the database close. */
const SHUTDOWN_WAIT_MS = 10_000;

/**
 * The follower: reads customers at the provider until their binding outcome and readiness are known, and keeps the
 * customer rows true (status, readyAt, active card). Other modules only read those rows.
 *
 * Customers are claimed through the shared LeasedQueue (lease owner and fence, SKIP LOCKED), so replicas never
 * read the same customer at once. Provider calls happen outside any transaction (CustomerProviderReaderService);
 * the result is written in one short transaction (CustomerSyncWriterService), then the engine ends the claim.
 * The provider has no customer-status event, so readiness is read with GET customer.
 */
/** The engine's loop that follows customers. */
export const CUSTOMER_SYNC_QUEUE = 'customers';

@Injectable()
export class CustomerSyncService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(CustomerSyncService.name);
  private readonly syncedTotal: Counter<'result'>;
  private readonly running = new Set<Promise<unknown>>();
  private readonly refreshes = new RefreshCoalescer<SyncResult | undefined>();
  private stopping = false;

  private readonly queue: LeasedQueue<Customer>;

  constructor(
    private readonly customers: CustomersRepository,
    private readonly reader: CustomerProviderReaderService,
    private readonly writer: CustomerSyncWriterService,
    queues: LeasedQueues,
    private readonly shutdown: ShutdownSignal,
    metrics: MetricsService,
    private readonly clock: Clock,
    private readonly providerEvents: ProviderEventRouter,
    private readonly runner: WorkRunnerService,
  ) {
    // The follower's queue: customers are its jobs, due at next_sync_at (database time).
    this.queue = queues.create<Customer>({
      name: CUSTOMER_SYNC_QUEUE,
      entity: Customer,
      dueColumn: 'next_sync_at',
      dueAgainst: 'database',
      hasNotBefore: false,
      extraReturning: `t.${NEXT_SYNC_AT_TEXT}`,
    });
    this.syncedTotal = metrics.counter({ name: 'billing_customers_synced_total', help: 'Customer reads at the provider by the follower and refresh, by result', labelNames: ['result'] });
  }

  /**
   * Reads up to `limit` customers whose next sync time has come (database time). Returns how many were claimed,
   * how many were read successfully and how many of those became ready. Takes no new work once shutdown has begun.
   */
  syncDue(limit = 50): Promise<{ claimed: number; synced: number; becameReady: number }> {
    if (this.isStopping()) return Promise.resolve({ claimed: 0, synced: 0, becameReady: 0 });
    return this.track(this.runDue(limit));
  }

  /**
   * Reads one customer now, whatever its schedule (the refresh endpoint). Undefined when there is no such customer.
   * Refreshes of one customer at once share reads (RefreshCoalescer): each still sees the provider as of its request.
   */
  syncNow(customerId: string): Promise<SyncResult | undefined> {
    return this.refreshes.run(customerId, async () => {
      const target = await this.customers.findSyncTarget(customerId);
      if (!target) return undefined;
      return this.track(this.syncTarget(target));
    });
  }

  /** The provider's customer and binding events make the customer's follower read it now, not at its next poll. */
  onModuleInit(): void {
    this.providerEvents.on('customer', async (event) => {
      if (!(await this.customers.followNowByProviderId(event.objectId))) return 'unknown_object';
      this.runner.kick(CUSTOMER_SYNC_QUEUE);
      return 'applied';
    });
  }

  /** The follower's own loop on the engine's runner (when SCHEDULER_ENABLED): customers are followed whenever due. */
  onApplicationBootstrap(): void {
    this.runner.start(CUSTOMER_SYNC_QUEUE, async () => (await this.syncDue(SYNC_BATCH)).claimed);
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  /** Lets reads in progress finish (bounded) before the database connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
    });
    await Promise.race([Promise.allSettled([...this.running]), timeout]);
    clearTimeout(timer);
  }

  private isStopping(): boolean {
    return this.stopping || this.shutdown.isShuttingDown;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  private async runDue(limit: number): Promise<{ claimed: number; synced: number; becameReady: number }> {
    // The times this pass writes (readyAt, createdAt of bindings found) are the billing clock's, as another replica may have moved it.
    await this.clock.refresh();
    let synced = 0;
    let becameReady = 0;
    let budget = limit;
    const claimed = await this.queue.drain(
      async (n) => {
        const batch = Math.min(n, budget);
        if (batch <= 0) return [];
        const claims = await this.queue.claim(batch);
        budget -= claims.length;
        return claims;
      },
      async (claim) => {
        const { outcome } = await this.syncTarget(this.customers.syncTargetOfClaim(claim));
        // Handed back at once, so an event that makes the customer due again is not held up until the next sweep.
        await this.queue.finish(claim);
        if (outcome === 'synced' || outcome === 'became_ready') synced += 1;
        if (outcome === 'became_ready') becameReady += 1;
      },
      { concurrency: SYNC_CONCURRENCY, batchSize: limit, stopping: () => this.isStopping() },
    );
    return { claimed, synced, becameReady };
  }

  private async syncTarget(target: SyncTarget): Promise<SyncResult> {
    let result: SyncResult;
    try {
      const view = await this.reader.read(target);
      const becameReady = await this.writer.record(target, view);
      result = { outcome: becameReady ? 'became_ready' : 'synced' };
    } catch (error) {
      result = await this.handleFailure(target, error);
    }
    this.syncedTotal.inc({ result: result.outcome });
    return result;
  }

  private async handleFailure(target: SyncTarget, error: unknown): Promise<SyncResult> {
    const customerGone = error instanceof ProviderError && error.kind === 'not_found' && error.operation !== 'getBinding';
    if (customerGone) {
      this.logger.error(`Customer ${target.id} (provider ${target.providerCustomerId}) is unknown to the provider; no longer following it: ${error.message}`);
      await this.customers.scheduleNextSync(target, null).catch((e: unknown) =>
        this.logger.error(`Customer ${target.id}: could not stop following it: ${describe(e)}`),
      );
      return { outcome: 'not_found', error };
    }
    const transient = error instanceof ProviderError && ['not_executed', 'unknown_outcome', 'unexpected'].includes(error.kind);
    const message = `Customer ${target.id}: reading the provider failed, retrying in ${RETRY_AFTER_FAILURE_MS / 1000} s: ${describe(error)}`;
    if (transient) this.logger.warn(message);
    else this.logger.error(message);
    await this.customers.scheduleNextSync(target, RETRY_AFTER_FAILURE_MS).catch((e: unknown) =>
      this.logger.error(`Customer ${target.id}: could not schedule the retry (its claim expires on its own): ${describe(e)}`),
    );
    return error instanceof ProviderError ? { outcome: 'provider_retry', error } : { outcome: 'error' };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
