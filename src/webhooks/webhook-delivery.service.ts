import { LeaseLostError } from '../work/lease-lost.error';
import { LeasedQueues } from '../work/leased-queues.service';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { ShutdownSignal } from '../common/shutdown-signal';
import type { MerchantEvent } from '../events/event.entity';
import { EventsService } from '../events/events.service';
import { timeOrderedId } from '../events/time-ordered-id';
import { Claim, LeasedQueue } from '../work/leased-queue';
import { WorkRunnerService } from '../work/work-runner.service';
import { EndpointPacer } from './endpoint-pacer';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDelivery } from './webhook-delivery.entity';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import { WEBHOOKS_QUEUE } from './webhook-endpoints.service';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookMetricsService } from './webhook-metrics.service';
import { webhookRetryDelayMs } from './webhook-retry-schedule';
import { SentAttempt, WebhookSenderService } from './webhook-sender.service';
import { WebhookTuning } from './webhook-tuning';

/** What sending one delivery needs besides its row. */
interface DeliveryContext {
  event: MerchantEvent | undefined;
  endpoint: WebhookEndpoint | undefined;
}

type DeliveryClaim = Claim<WebhookDelivery>;

/**
 * Works the delivery queue on the work engine, in processes that run the scheduler: every event is fanned out to
 * its endpoints in the producer's transaction; here each delivery is claimed, sent, and its attempt recorded with
 * its next state (retry on the schedule, success, or failed once the window is over) in one fenced statement.
 * A slow or failing endpoint holds at most `perEndpointInFlight` workers of this process; the others go on.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly queue: LeasedQueue<WebhookDelivery>;
  private readonly pacer: EndpointPacer;
  private stopping = false;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsService,
    private readonly sender: WebhookSenderService,
    private readonly clock: SystemClock,
    private readonly tuning: WebhookTuning,
    private readonly metrics: WebhookMetricsService,
    private readonly runner: WorkRunnerService,
    private readonly shutdown: ShutdownSignal,
    queues: LeasedQueues,
  ) {
    this.queue = queues.create<WebhookDelivery>({
      name: WEBHOOKS_QUEUE,
      entity: WebhookDelivery,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'database',
      hasNotBefore: false,
    });
    this.pacer = new EndpointPacer({ perEndpoint: tuning.perEndpointInFlight, initialLatencyMs: tuning.initialLatencyMs, maxDeferMs: tuning.maxDeferMs });
  }

  /** Every event recorded from now on is fanned out to the endpoints subscribed to it, in its own statement. */
  onModuleInit(): void {
    this.events.addFanOut((eventsCte) => this.deliveries.fanOutCte(eventsCte));
  }

  onApplicationBootstrap(): void {
    this.runner.start(WEBHOOKS_QUEUE, () => this.drain());
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /** Sends every due delivery; answers how many were worked. */
  drain(): Promise<number> {
    const contexts = new WeakMap<DeliveryClaim, Promise<DeliveryContext>>();
    return this.queue.drain(
      async (limit) => {
        const claims = await this.queue.claim(limit);
        this.prepare(claims, contexts);
        return claims;
      },
      (claim) => this.work(claim, contexts.get(claim) ?? this.load([claim]).then((all) => all[0])),
      {
        concurrency: this.tuning.concurrency,
        batchSize: this.tuning.concurrency,
        stopping: () => this.stopping || this.shutdown.isShuttingDown,
        // A receiver that never answers holds its worker up to the timeout; the others keep looking for new deliveries.
        idleRetryMs: this.tuning.busyPollMs,
      },
    );
  }

  /** The events and endpoints of a claimed batch in two reads; a failed read is met by each delivery's own work. */
  private prepare(claims: DeliveryClaim[], contexts: WeakMap<DeliveryClaim, Promise<DeliveryContext>>): void {
    if (claims.length === 0) return;
    const loading = this.load(claims);
    claims.forEach((claim, i) => {
      const context = loading.then((all) => all[i]);
      context.catch(() => undefined);
      contexts.set(claim, context);
    });
  }

  private async load(claims: DeliveryClaim[]): Promise<DeliveryContext[]> {
    const unique = <T>(values: T[]) => [...new Set(values)];
    const [events, endpoints] = await Promise.all([
      this.events.findMany(unique(claims.map((c) => c.row.eventId))),
      this.endpoints.findByIds(unique(claims.map((c) => c.row.endpointId))),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    return claims.map((c) => ({ event: eventById.get(c.row.eventId), endpoint: endpointById.get(c.row.endpointId) }));
  }

  private async work(claim: DeliveryClaim, context: Promise<DeliveryContext>): Promise<void> {
    const delivery = claim.row;
    try {
      if (!this.pacer.tryAcquire(delivery.endpointId)) {
        // This endpoint already holds its share of the workers: the delivery waits for a slot at the endpoint's pace,
        // and the other endpoints' deliveries go on.
        const delayMs = this.pacer.deferralMs(delivery.endpointId, this.clock.now().getTime());
        // Handed back unsent, due again once the endpoint has a slot.
        await this.queue.write(claim, {}, { release: true, dueInMs: delayMs });
        this.metrics.deliveries.inc({ result: 'deferred' });
        return;
      }
      let durationMs = 0;
      try {
        durationMs = await this.deliver(claim, await context);
      } finally {
        this.pacer.release(delivery.endpointId, durationMs, this.clock.now().getTime());
      }
    } catch (error) {
      // A lost lease ends the step as it is (the engine's rule, LeasedQueue.lost): the drain drops it.
      if (error instanceof LeaseLostError) throw error;
      // The claim is handed back by the engine's sweep; the delivery is sent again (at least once).
      this.logger.warn({ err: error, deliveryId: delivery.id }, 'Webhook delivery step failed; it is tried again shortly');
    }
  }

  /** Answers how long the endpoint took (0 when nothing was sent). */
  private async deliver(claim: DeliveryClaim, { event, endpoint }: DeliveryContext): Promise<number> {
    const delivery = claim.row;
    if (!endpoint || !endpoint.enabled || !event) {
      // Deleted or disabled endpoint: nothing to send to. An event past its retention: nothing to send.
      await this.queue.write(claim, { status: event ? 'canceled' : 'failed' }, { release: true, dueInMs: null });
      this.metrics.deliveries.inc({ result: event ? 'canceled' : 'failed' });
      return 0;
    }
    const sent = await this.sender.send(endpoint, event);
    const ok = sent.status !== null && sent.status >= 200 && sent.status <= 299;
    const retryInMs = ok ? null : webhookRetryDelayMs(delivery.attemptCount + 1, sent.sentAt.getTime() - delivery.createdAt.getTime(), this.tuning);
    const failures = await this.deliveries.recordAttempt({
      id: timeOrderedId(sent.sentAt),
      deliveryId: delivery.id,
      fence: claim.fence,
      ok,
      responseStatus: sent.status,
      durationMs: sent.durationMs,
      error: sent.error,
      retryInMs,
      sentAt: sent.sentAt,
    });
    if (failures === undefined) this.queue.lost(claim);
    const result = ok ? 'succeeded' : retryInMs === null ? 'failed' : 'retrying';
    this.metrics.deliveries.inc({ result });
    this.metrics.duration.observe({ result }, sent.durationMs / 1000);
    this.report(endpoint, failures, sent, result === 'failed');
    return sent.durationMs;
  }

  /** The consecutive-failures gauge, and a warning when an endpoint keeps failing (at the threshold and each doubling). */
  private report(endpoint: WebhookEndpoint, failures: number, sent: SentAttempt, gaveUp: boolean): void {
    const previous = endpoint.consecutiveFailures;
    endpoint.consecutiveFailures = failures;
    this.metrics.consecutiveFailures.set({ endpoint: endpoint.id }, failures);
    const fields = { endpointId: endpoint.id, host: hostOf(endpoint.url), consecutiveFailures: failures, lastError: sent.error };
    const threshold = this.tuning.warnAfterFailures;
    if (failures >= threshold && Number.isInteger(Math.log2(failures / threshold))) {
      this.logger.warn(fields, `Webhook endpoint ${endpoint.id} keeps failing: ${failures} attempts in a row; the other endpoints are not held back`);
    } else if (gaveUp) {
      this.logger.warn(fields, `Webhook endpoint ${endpoint.id}: a delivery failed for good after its retry window`);
    } else if (failures === 0 && previous >= threshold) {
      this.logger.log({ endpointId: endpoint.id, host: hostOf(endpoint.url) }, `Webhook endpoint ${endpoint.id} answers again`);
    }
  }
}

/** Only the host is ever logged: a URL's path or query may carry a token of the merchant's. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}
