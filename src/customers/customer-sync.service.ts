import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { MetricsService } from '../common/metrics/metrics.service';
import { ShutdownSignal } from '../common/shutdown-signal';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { CustomerBindingStatus, CustomerEvent } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { BindingStatus, CustomerBinding } from './customer-binding.entity';
import { Customer, CustomerStatus } from './customer.entity';
import { LeasedQueue } from '../work/leased-queue';
import { WorkMetricsService } from '../work/work-metrics.service';
import { WorkerRegistryService } from '../work/worker-registry.service';
import {
  BINDING_NOT_STARTED_CODE,
  CardSummary,
  cardSummaryFrom,
  nextPollDelayMs,
  RETRY_AFTER_FAILURE_MS,
  UNSTARTED_BINDING_GIVE_UP_MS,
} from './sync-schedule';

/** What one read of a customer at the provider ended in; also the `result` label of the metric. */
export type SyncOutcome = 'synced' | 'became_ready' | 'provider_retry' | 'not_found' | 'error';

export interface SyncResult {
  outcome: SyncOutcome;
  /** The provider failure behind `provider_retry` / `not_found`. */
  error?: ProviderError;
}

/** A customer as the follower takes it: only what reading the provider needs. */
interface SyncTarget {
  id: string;
  providerCustomerId: string;
  status: CustomerStatus;
  lastEventId: number | null;
  activeBindingId: string | null;
  hasCard: boolean;
  createdAt: Date;
  /** next_sync_at exactly as the database printed it when we took the customer (our claim, or what refresh saw). */
  observedNextSyncAt: string | null;
  /** The fence of our claim; undefined for a refresh, which reads without claiming. */
  fence?: number;
}

interface SyncTargetRow {
  id: string;
  provider_customer_id: string;
  status: CustomerStatus;
  last_event_id: number | null;
  active_binding_id: string | null;
  card_bin: string | null;
  card_last_digits: string | null;
  created_at: Date;
  next_sync_at_text: string | null;
}

const TARGET_COLUMNS = `id, provider_customer_id, status, last_event_id, active_binding_id, card_bin, card_last_digits, created_at,
  next_sync_at::text AS next_sync_at_text`;

/** What the events said about one provider binding, folded in event order. */
interface BindingObservation {
  providerBindingId: string;
  externalId?: string;
  status?: CustomerBindingStatus;
  errorCode?: string | null;
  card?: CardSummary | null;
}

interface ProviderView {
  observations: Map<string, BindingObservation>;
  lastEventId: number | null;
  /** True when the page cap was hit: more events wait, so the customer is read again at once. */
  moreEvents: boolean;
  /** True when our event cursor named no event and the stream was read again from the start. */
  restarted: boolean;
  status: CustomerStatus;
  /** The binding that becomes the active card, with its details; undefined when the active card stays as it is. */
  activeCard?: { providerBindingId: string; card: CardSummary | null };
}

const EVENTS_PAGE_SIZE = 100;
/** At most this many pages per read, so one customer with a huge history cannot hold a worker for long. */
const MAX_EVENT_PAGES = 50;
/** Customers read at once by one syncDue call (the gateway caps provider calls in flight separately). */
const SYNC_CONCURRENCY = 4;
/** How long shutdown waits for reads in progress before letting the database close. */
const SHUTDOWN_WAIT_MS = 10_000;

const TERMINAL: ReadonlySet<BindingStatus> = new Set(['succeeded', 'failed']);

/**
 * The follower: reads customers at the provider until their binding outcome and readiness are known, and keeps the
 * customer rows true (status, readyAt, active card). Other modules only read those rows.
 *
 * Customers are claimed with a lease (next_sync_at moved 60 s ahead in one UPDATE … FOR UPDATE SKIP LOCKED), so
 * replicas never read the same customer at once; provider calls happen outside any transaction, and the result is
 * written in one short transaction. The provider has no customer-status event, so readiness is read with GET customer.
 */
@Injectable()
export class CustomerSyncService implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(CustomerSyncService.name);
  private readonly syncedTotal: Counter<'result'>;
  private readonly running = new Set<Promise<unknown>>();
  private stopping = false;

  private readonly queue: LeasedQueue<Customer>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    registry: WorkerRegistryService,
    workMetrics: WorkMetricsService,
    private readonly gateway: ProcessingGateway,
    private readonly clock: Clock,
    private readonly shutdown: ShutdownSignal,
    metrics: MetricsService,
  ) {
    this.queue = new LeasedQueue(dataSource, registry, workMetrics, {
      name: 'customers',
      entity: Customer,
      dueColumn: 'next_sync_at',
      dueClock: 'real',
      hasNotBefore: false,
      extraReturning: 't.next_sync_at::text AS next_sync_at_text',
    });
    const name = 'billing_customers_synced_total';
    // Several app instances may share a MetricsService in tests; register the counter once.
    this.syncedTotal =
      (metrics.registry.getSingleMetric(name) as Counter<'result'> | undefined) ??
      metrics.counter({ name, help: 'Customer reads at the provider by the follower and refresh, by result', labelNames: ['result'] });
  }

  /**
   * Reads up to `limit` customers whose next sync time has come (database time). Returns how many were claimed,
   * how many were read successfully and how many of those became ready. Takes no new work once shutdown has begun.
   */
  syncDue(limit = 50): Promise<{ claimed: number; synced: number; becameReady: number }> {
    if (this.isStopping()) return Promise.resolve({ claimed: 0, synced: 0, becameReady: 0 });
    return this.track(this.runDue(limit));
  }

  /** Reads one customer now, whatever its schedule (the refresh endpoint). Undefined when there is no such customer. */
  async syncNow(customerId: string): Promise<SyncResult | undefined> {
    const rows = await this.dataSource.query<SyncTargetRow[]>(`SELECT ${TARGET_COLUMNS} FROM customers WHERE id = $1`, [customerId]);
    if (rows.length === 0) return undefined;
    return this.track(this.syncTarget(toTarget(rows[0])));
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
        const { outcome } = await this.syncTarget(toTarget(claim.row, claim.fence, claim.extra.next_sync_at_text as string | null));
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
      const view = await this.readProvider(target);
      const becameReady = await this.writeBack(target, view);
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
      await this.writeNextSync(this.dataSource.manager, target, null).catch((e: unknown) =>
        this.logger.error(`Customer ${target.id}: could not stop following it: ${describe(e)}`),
      );
      return { outcome: 'not_found', error };
    }
    const transient = error instanceof ProviderError && ['not_executed', 'unknown_outcome', 'unexpected'].includes(error.kind);
    const message = `Customer ${target.id}: reading the provider failed, retrying in ${RETRY_AFTER_FAILURE_MS / 1000} s: ${describe(error)}`;
    if (transient) this.logger.warn(message);
    else this.logger.error(message);
    await this.writeNextSync(this.dataSource.manager, target, RETRY_AFTER_FAILURE_MS).catch((e: unknown) =>
      this.logger.error(`Customer ${target.id}: could not schedule the retry (its claim expires on its own): ${describe(e)}`),
    );
    return error instanceof ProviderError ? { outcome: 'provider_retry', error } : { outcome: 'error' };
  }

  /** Every provider read for one customer: new events, the customer's status, and the active card's details. */
  private async readProvider(target: SyncTarget): Promise<ProviderView> {
    const observations = new Map<string, BindingObservation>();
    let lastEventId = target.lastEventId;
    let newestSucceeded: string | undefined;
    let moreEvents = false;
    let restarted = false;
    for (let page = 0; ; page += 1) {
      if (page === MAX_EVENT_PAGES) {
        moreEvents = true;
        break;
      }
      let events: CustomerEvent[];
      try {
        events = await this.gateway.getCustomerEvents(target.providerCustomerId, { limit: EVENTS_PAGE_SIZE, eventID: lastEventId ?? undefined });
      } catch (error) {
        // 404 is either "Customer not found" or "Event not found" (our cursor names no event, e.g. the provider's
        // history was reset). GET customer tells them apart: it throws not_found when the customer is gone.
        if (!(error instanceof ProviderError && error.kind === 'not_found') || lastEventId === null || restarted) throw error;
        await this.gateway.getCustomer(target.providerCustomerId);
        this.logger.warn(`Customer ${target.id}: the provider has no event ${lastEventId}; reading its events from the start`);
        restarted = true;
        lastEventId = null;
        observations.clear();
        newestSucceeded = undefined;
        continue;
      }
      const before = lastEventId;
      for (const event of events) {
        // Guards against a provider repeating events we already have.
        if (lastEventId !== null && event.id <= lastEventId) continue;
        newestSucceeded = foldEvent(observations, event) ?? newestSucceeded;
        lastEventId = event.id;
      }
      if (events.length < EVENTS_PAGE_SIZE || lastEventId === before) break;
    }

    const customer = await this.gateway.getCustomer(target.providerCustomerId);
    const view: ProviderView = { observations, lastEventId, moreEvents, restarted, status: customer.status };

    // A success among the new events is newer than the active card; without one, only fill a missing card.
    let candidate = newestSucceeded;
    if (candidate === undefined && (target.activeBindingId === null || !target.hasCard)) {
      candidate = target.activeBindingId ?? (await this.newestSucceededBinding(target.id));
    }
    if (candidate !== undefined && (candidate !== target.activeBindingId || !target.hasCard)) {
      const binding = await this.gateway.getBinding(target.providerCustomerId, candidate);
      if (binding.status === 'succeeded') {
        view.activeCard = { providerBindingId: candidate, card: cardSummaryFrom(binding.paymentResource?.paymentToolDetails) };
      }
    }
    return view;
  }

  private async newestSucceededBinding(customerId: string): Promise<string | undefined> {
    const row = await this.dataSource.getRepository(CustomerBinding).findOne({
      where: { customerId, status: 'succeeded' },
      order: { updatedAt: 'DESC', createdAt: 'DESC' },
    });
    return row?.providerBindingId ?? undefined;
  }

  /** Records what was read in one short transaction. Returns true when the customer has just become ready. */
  private async writeBack(target: SyncTarget, view: ProviderView): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      // Lock the customer first (startBinding does the same), then its bindings.
      const [current] = await em.query<{ status: CustomerStatus; last_event_id: number | null; created_at: Date; active_binding_id: string | null }[]>(
        `SELECT status, last_event_id, created_at, active_binding_id FROM customers WHERE id = $1 FOR UPDATE`,
        [target.id],
      );
      if (!current) return false;

      for (const observation of view.observations.values()) await this.applyObservation(em, target.id, observation);
      await em.query(
        `UPDATE customer_bindings SET status = 'failed', error_code = $2, updated_at = now()
         WHERE customer_id = $1 AND provider_binding_id IS NULL AND status IN ('pending', 'unknown')
           AND created_at < now() - $3::float8 * interval '1 millisecond'`,
        [target.id, BINDING_NOT_STARTED_CODE, UNSTARTED_BINDING_GIVE_UP_MS],
      );

      // A slower concurrent reader (refresh racing the follower) must not put back an older picture.
      const behind = !view.restarted && current.last_event_id !== null && (view.lastEventId ?? 0) < current.last_event_id;
      let becameReady = false;
      let activeBindingId = current.active_binding_id;
      if (!behind) {
        const patch: Partial<Pick<Customer, 'status' | 'readyAt' | 'activeBindingId' | 'cardBin' | 'cardLastDigits' | 'cardPaymentSystem'>> = {};
        if (view.status !== current.status) patch.status = view.status;
        if (view.status === 'ready' && current.status !== 'ready') {
          becameReady = true;
          patch.readyAt = this.clock.now();
        }
        if (view.activeCard) {
          const card = view.activeCard.card;
          patch.activeBindingId = view.activeCard.providerBindingId;
          patch.cardBin = card?.bin ?? null;
          patch.cardLastDigits = card?.lastDigits ?? null;
          patch.cardPaymentSystem = card?.paymentSystem ?? null;
          activeBindingId = view.activeCard.providerBindingId;
          if (card) {
            await em.getRepository(CustomerBinding).update(
              { providerBindingId: view.activeCard.providerBindingId },
              { cardBin: card.bin, cardLastDigits: card.lastDigits, cardPaymentSystem: card.paymentSystem },
            );
          }
        }
        if (Object.keys(patch).length > 0) {
          // readyAt keeps the first time: an update never clears it.
          if (patch.readyAt) await em.query(`UPDATE customers SET ready_at = COALESCE(ready_at, $2) WHERE id = $1`, [target.id, patch.readyAt]);
          delete patch.readyAt;
          if (Object.keys(patch).length > 0) await em.getRepository(Customer).update(target.id, patch);
          else await em.query(`UPDATE customers SET updated_at = now() WHERE id = $1`, [target.id]);
        }
        if (view.restarted) {
          await em.query(`UPDATE customers SET last_event_id = $2 WHERE id = $1`, [target.id, view.lastEventId]);
        } else if (view.lastEventId !== null) {
          await em.query(`UPDATE customers SET last_event_id = GREATEST(last_event_id, $2) WHERE id = $1`, [target.id, view.lastEventId]);
        }
      }

      const status = behind ? current.status : view.status;
      await this.writeNextSync(em, target, await this.nextDelay(em, target.id, status, activeBindingId, current.created_at, view.moreEvents));
      return becameReady;
    });
  }

  /** Inserts or updates the local row of one provider binding; an API binding is matched by the externalID we sent. */
  private async applyObservation(em: EntityManager, customerId: string, observation: BindingObservation): Promise<void> {
    const repo = em.getRepository(CustomerBinding);
    let row = await repo.findOne({ where: { providerBindingId: observation.providerBindingId } });
    if (!row && observation.externalId !== undefined) {
      row = await repo.findOne({ where: { externalId: observation.externalId, customerId } });
    }
    if (!row) {
      // Not started through our API (the hosted form): a new row without an externalId.
      await repo
        .createQueryBuilder()
        .insert()
        .values({
          customerId,
          providerBindingId: observation.providerBindingId,
          externalId: null,
          status: observation.status ?? 'pending',
          errorCode: observation.status === 'failed' ? (observation.errorCode ?? null) : null,
          cardBin: observation.card?.bin ?? null,
          cardLastDigits: observation.card?.lastDigits ?? null,
          cardPaymentSystem: observation.card?.paymentSystem ?? null,
        })
        .orIgnore()
        .execute();
      row = await repo.findOne({ where: { providerBindingId: observation.providerBindingId } });
      if (!row) return;
    }
    if (row.customerId !== customerId) {
      this.logger.error(`Provider binding ${observation.providerBindingId} is already recorded for another customer (${row.customerId}); ignored`);
      return;
    }
    const status = mergeStatus(row.status, observation.status);
    const patch: Partial<Pick<CustomerBinding, 'providerBindingId' | 'status' | 'errorCode' | 'cardBin' | 'cardLastDigits' | 'cardPaymentSystem'>> = {};
    if (row.providerBindingId !== observation.providerBindingId) patch.providerBindingId = observation.providerBindingId;
    if (status !== row.status) patch.status = status;
    const errorCode = status === 'failed' ? (observation.errorCode ?? row.errorCode) : null;
    if (errorCode !== row.errorCode) patch.errorCode = errorCode;
    if (observation.card && row.cardBin === null && row.cardLastDigits === null) {
      patch.cardBin = observation.card.bin;
      patch.cardLastDigits = observation.card.lastDigits;
      patch.cardPaymentSystem = observation.card.paymentSystem;
    }
    if (Object.keys(patch).length > 0) await repo.update(row.id, patch);
  }

  /**
   * Null when nothing is left to learn (ready, active card known, no binding in progress); otherwise the backoff for
   * how long the newest binding in progress (or, without one, the customer) has been waiting.
   */
  private async nextDelay(
    em: EntityManager,
    customerId: string,
    status: CustomerStatus,
    activeBindingId: string | null,
    customerCreatedAt: Date,
    moreEvents: boolean,
  ): Promise<number | null> {
    if (moreEvents) return 0;
    const [row] = await em.query<{ db_now: Date; newest: Date | null }[]>(
      `SELECT now() AS db_now, max(created_at) AS newest FROM customer_bindings WHERE customer_id = $1 AND status IN ('pending', 'unknown')`,
      [customerId],
    );
    if (row.newest !== null) return nextPollDelayMs(row.db_now.getTime() - row.newest.getTime());
    if (status === 'ready' && activeBindingId !== null) return null;
    // Unready (the payer may still use the hosted form) or ready with no card known yet.
    return nextPollDelayMs(row.db_now.getTime() - customerCreatedAt.getTime());
  }

  /**
   * Sets the next read. When someone else moved next_sync_at since we took the customer (a binding was just
   * started, or another reader finished), the earlier of the two wins, so a fresh request is never pushed back.
   */
  private async writeNextSync(em: EntityManager, target: SyncTarget, delayMs: number | null): Promise<void> {
    await em.query(
      `UPDATE customers SET next_sync_at = CASE
         WHEN next_sync_at IS NOT DISTINCT FROM $2::timestamptz THEN now() + $3::float8 * interval '1 millisecond'
         ELSE LEAST(next_sync_at, now() + $3::float8 * interval '1 millisecond')
       END,
       lease_owner = CASE WHEN fence = $4 THEN NULL ELSE lease_owner END
       WHERE id = $1`,
      [target.id, target.observedNextSyncAt, delayMs, target.fence ?? -1],
    );
  }
}

function toTarget(row: SyncTargetRow | Customer, fence?: number, nextSyncAtText: string | null = null): SyncTarget {
  if (row instanceof Customer) {
    return {
      id: row.id,
      providerCustomerId: row.providerCustomerId,
      status: row.status,
      lastEventId: row.lastEventId,
      activeBindingId: row.activeBindingId,
      hasCard: row.cardBin !== null || row.cardLastDigits !== null,
      createdAt: row.createdAt,
      observedNextSyncAt: nextSyncAtText,
      fence,
    };
  }
  return {
    id: row.id,
    providerCustomerId: row.provider_customer_id,
    status: row.status,
    lastEventId: row.last_event_id,
    activeBindingId: row.active_binding_id,
    hasCard: row.card_bin !== null || row.card_last_digits !== null,
    createdAt: row.created_at,
    observedNextSyncAt: row.next_sync_at_text,
  };
}

/** Folds one event into the observations; returns the id of the last binding it reports as succeeded, if any. */
function foldEvent(observations: Map<string, BindingObservation>, event: CustomerEvent): string | undefined {
  let succeeded: string | undefined;
  const observe = (id: string) => {
    let observation = observations.get(id);
    if (!observation) {
      observation = { providerBindingId: id };
      observations.set(id, observation);
    }
    return observation;
  };
  for (const change of event.changes ?? []) {
    if (change.changeType === 'CustomerBindingStarted') {
      const binding = change.customerBinding;
      const observation = observe(binding.id);
      if (binding.externalID !== undefined) observation.externalId = binding.externalID;
      observation.status = binding.status;
      observation.errorCode = binding.error?.code ?? null;
      observation.card = cardSummaryFrom(binding.paymentResource?.paymentToolDetails);
      if (binding.status === 'succeeded') succeeded = binding.id;
    } else if (change.changeType === 'CustomerBindingStatusChanged') {
      const observation = observe(change.customerBindingID);
      observation.status = change.status;
      observation.errorCode = change.error?.code ?? null;
      if (change.status === 'succeeded') succeeded = change.customerBindingID;
    }
    // Interaction requested/completed (3-D Secure) does not change the binding's status.
  }
  return succeeded;
}

/** A binding's outcome is final at the provider: a replayed or stale "pending" never undoes it. */
function mergeStatus(current: BindingStatus, observed: CustomerBindingStatus | undefined): BindingStatus {
  if (observed === undefined) return current;
  if (TERMINAL.has(current) && observed === 'pending') return current;
  return observed;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
