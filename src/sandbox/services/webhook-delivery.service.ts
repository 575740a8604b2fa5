import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SandboxConfig } from '../sandbox-config';
import type { SandboxState } from '../state/sandbox-state';
import { SandboxStateService } from '../state/sandbox-state.service';
import type { DeliveryQueue, DeliveryStatus, WebhookApi, WebhookDelivery } from '../state/webhook-state';
import { retryDelayMs } from '../webhooks/webhook-retry-schedule';
import { postWebhook } from '../webhooks/webhook-sender';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookKeysService } from './webhook-keys.service';

/** One event for one webhook, as the event service hands it over. */
export interface DeliveryRequest {
  api: WebhookApi;
  webhookID: string;
  url: string;
  topic: string;
  eventType: string;
  eventID: number | string;
  /** Names the object's queue, e.g. "invoice:u7o9gfIwPA". */
  objectKey: string;
  objectID: string;
  body: string;
}

export interface DeliveryFilter {
  api?: WebhookApi;
  webhookID?: string;
  status?: DeliveryStatus;
  limit?: number;
}

/** The provider's timeout for one delivery; only HTTP 200 within it counts. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Deliveries on the wire at once, across all queues. */
const MAX_IN_FLIGHT = 8;
/** Pending deliveries beyond this are dropped at once (a receiver down under heavy load must not eat the memory). */
const MAX_PENDING_DELIVERIES = 10_000;
export const DELIVERY_HISTORY_CAPACITY = 2000;

/**
 * Delivers webhook events as the provider does: one queue per webhook and object (events of one invoice, customer,
 * withdrawal or destination arrive in order), signed with the owner's key, success only on HTTP 200, retried on the
 * provider's schedule (scaled by the `webhookRetryScale` setting). Everything runs on timers after the API has
 * answered, at most MAX_IN_FLIGHT at a time. Pending deliveries are part of the saved state, so a restarted sandbox
 * carries on; the history of finished ones is kept in memory for the control API.
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SandboxWebhooks');
  private readonly runnable: { state: SandboxState; queue: DeliveryQueue }[] = [];
  /** Queues with a timer, a place in `runnable` or a request on the wire: never started twice. */
  private readonly armed = new WeakSet<DeliveryQueue>();
  private readonly aborter = new AbortController();
  private inFlight = 0;
  private history: WebhookDelivery[] = [];
  private historyNext = 0;

  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly scheduler: SandboxScheduler,
    private readonly keys: WebhookKeysService,
  ) {}

  /** Deliveries pending when the state was saved carry on where they stopped. */
  onApplicationBootstrap(): void {
    const { state } = this.store;
    const now = Date.now();
    for (const queue of state.webhooks.queues.values()) {
      queue.messages.forEach((delivery) => this.remember(delivery));
      const next = queue.messages[0]?.nextAttemptAt;
      this.arm(state, queue, next === undefined ? 0 : Date.parse(next) - now);
    }
  }

  onModuleDestroy(): void {
    this.aborter.abort();
  }

  /** Queues one event for one webhook; the API answer never waits for it. */
  enqueue(request: DeliveryRequest): void {
    const { state } = this.store;
    const webhooks = state.webhooks;
    const delivery: WebhookDelivery = {
      id: String(webhooks.next('delivery')),
      api: request.api,
      webhookID: request.webhookID,
      url: request.url,
      topic: request.topic,
      eventType: request.eventType,
      eventID: request.eventID,
      objectID: request.objectID,
      body: request.body,
      createdAt: new Date().toISOString(),
      status: 'pending',
      attempts: [],
    };
    this.remember(delivery);
    if (webhooks.pending >= MAX_PENDING_DELIVERIES) {
      this.finish(delivery, 'dropped', 'too many deliveries pending');
      this.logger.warn(`Webhook ${request.api} ${request.webhookID}: ${request.eventType} dropped, ${MAX_PENDING_DELIVERIES} deliveries already pending`);
      return;
    }
    const key = `${request.api}:${request.webhookID}:${request.objectKey}`;
    let queue = webhooks.queues.get(key);
    if (!queue) {
      queue = { key, api: request.api, webhookID: request.webhookID, messages: [] };
      webhooks.queues.set(key, queue);
    }
    queue.messages.push(delivery);
    webhooks.pending += 1;
    this.arm(state, queue, 0);
    this.store.changed();
  }

  /** Deliveries oldest first (at most the last DELIVERY_HISTORY_CAPACITY), as copies. */
  list(filter: DeliveryFilter = {}): WebhookDelivery[] {
    const ordered = this.history.length < DELIVERY_HISTORY_CAPACITY ? this.history : [...this.history.slice(this.historyNext), ...this.history.slice(0, this.historyNext)];
    const matching = ordered.filter(
      (d) =>
        (filter.api === undefined || d.api === filter.api) &&
        (filter.webhookID === undefined || d.webhookID === filter.webhookID) &&
        (filter.status === undefined || d.status === filter.status),
    );
    return structuredClone(filter.limit !== undefined ? matching.slice(Math.max(0, matching.length - filter.limit)) : matching);
  }

  /** Reset: forgets the history and the queues waiting for a slot (their state is gone; timers are the scheduler's). */
  clear(): void {
    this.runnable.length = 0;
    this.history = [];
    this.historyNext = 0;
  }

  private remember(delivery: WebhookDelivery): void {
    if (this.history.length < DELIVERY_HISTORY_CAPACITY) this.history.push(delivery);
    else this.history[this.historyNext] = delivery;
    this.historyNext = (this.historyNext + 1) % DELIVERY_HISTORY_CAPACITY;
  }

  private arm(state: SandboxState, queue: DeliveryQueue, delayMs: number): void {
    if (this.armed.has(queue)) return;
    this.armed.add(queue);
    this.scheduler.after(Math.max(0, delayMs), () => {
      this.runnable.push({ state, queue });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.runnable.length > 0) {
      const { state, queue } = this.runnable.shift() as { state: SandboxState; queue: DeliveryQueue };
      const head = queue.messages[0];
      if (state !== this.store.state || state.webhooks.queues.get(queue.key) !== queue || !head) {
        this.armed.delete(queue);
        continue;
      }
      this.inFlight += 1;
      this.attempt(state, queue, head)
        .catch((e: unknown) => this.logger.error(`Webhook delivery ${head.id} failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
        });
    }
  }

  private async attempt(state: SandboxState, queue: DeliveryQueue, head: WebhookDelivery): Promise<void> {
    const webhook = queue.api === 'processing' ? state.webhooks.processing.get(queue.webhookID) : state.webhooks.wallet.get(queue.webhookID);
    const signature = webhook ? this.keys.contentSignature(head.body, 'identityID' in webhook ? webhook.identityID : undefined) : undefined;
    if (!webhook || !signature) {
      // The provider forgets a deleted webhook's deliveries.
      this.dropQueue(state, queue, 'webhook deleted');
      return;
    }
    const result = await postWebhook(head.url, head.body, signature, DELIVERY_TIMEOUT_MS, this.aborter.signal);
    // A reset meanwhile made this delivery part of a forgotten state.
    if (state !== this.store.state || this.aborter.signal.aborted) return;
    const now = Date.now();
    head.attempts.push({ at: new Date(now - result.durationMs).toISOString(), httpStatus: result.httpStatus, ...(result.error ? { error: result.error } : {}), durationMs: result.durationMs });
    this.armed.delete(queue);
    if (result.httpStatus === 200) {
      this.takeHead(state, queue);
      this.finish(head, 'delivered');
    } else {
      const delay = retryDelayMs(queue.api, head.attempts.length, Date.parse(head.attempts[0].at), now, this.config.webhookRetryScale);
      if (delay !== undefined) {
        head.nextAttemptAt = new Date(now + delay).toISOString();
        this.arm(state, queue, delay);
        this.store.changed();
        return;
      }
      if (queue.api === 'processing') {
        this.dropQueue(state, queue, 'retries exhausted');
        return;
      }
      this.takeHead(state, queue);
      this.finish(head, 'dead', 'not delivered within 24 h');
    }
    if (queue.messages.length > 0) this.arm(state, queue, 0);
    else state.webhooks.queues.delete(queue.key);
    this.store.changed();
  }

  /** Processing gives up on a whole queue: every event of that invoice or customer still waiting is dropped. */
  private dropQueue(state: SandboxState, queue: DeliveryQueue, reason: string): void {
    const dropped = queue.messages.splice(0);
    state.webhooks.pending -= dropped.length;
    for (const delivery of dropped) this.finish(delivery, 'dropped', reason);
    state.webhooks.queues.delete(queue.key);
    this.armed.delete(queue);
    this.logger.warn(`Webhook ${queue.api} ${queue.webhookID}: queued events of ${queue.key.split(':').slice(2).join(':')} dropped (${reason})`);
    this.store.changed();
  }

  private takeHead(state: SandboxState, queue: DeliveryQueue): void {
    queue.messages.shift();
    state.webhooks.pending -= 1;
  }

  private finish(delivery: WebhookDelivery, status: DeliveryStatus, reason?: string): void {
    delivery.status = status;
    delete delivery.nextAttemptAt;
    if (reason !== undefined) delivery.reason = reason;
  }
}
