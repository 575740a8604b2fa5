import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import type { ProviderWebhookTopic } from './provider-webhook.entity';
import { ProviderWebhooksRepository } from './provider-webhooks.repository';
import type { ProviderEventKind } from './provider-event-router.service';

/** Events of a topic count as flowing while the newest arrived less than this long ago. */
const FLOWING_WITHIN_MS = 10 * 60_000;
const REFRESH_MS = 10_000;

const TOPIC_OF: Record<ProviderEventKind, ProviderWebhookTopic> = {
  invoice: 'InvoicesTopic',
  refund: 'InvoicesTopic',
  customer: 'CustomersTopic',
  withdrawal: 'WithdrawalsTopic',
  destination: 'DestinationsTopic',
};

/**
 * Whether the provider's webhooks of a kind are arriving (at any replica): while they are, polling is only the
 * safety net and runs at a slower cadence; until the first one arrives, and once they stop, polling is as usual.
 */
@Injectable()
export class WebhookHealthService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookHealthService.name);
  /** Real time (ms) of the newest event per topic, as this process last learned it. */
  private readonly lastEventAt = new Map<ProviderWebhookTopic, number>();
  /** Where the provider sends this deployment's events (PROVIDER_WEBHOOK_PATH at the public URL), once known. */
  private url: string | undefined;
  /** Topics whose webhook to `url` is registered at the provider (by any replica), as this process last learned it. */
  private readonly registered = new Set<ProviderWebhookTopic>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly webhooks: ProviderWebhooksRepository,
    private readonly clock: SystemClock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** True while events of this kind arrive: pollers may then slow down. */
  isFlowing(kind: ProviderEventKind): boolean {
    const at = this.lastEventAt.get(TOPIC_OF[kind]);
    return at !== undefined && this.clock.now().getTime() - at < FLOWING_WITHIN_MS;
  }

  /**
   * True while the provider has a webhook of this kind registered: its events are expected from the first one on, so
   * an outcome can wait for its event, with a short safety net for an event that never comes.
   */
  expectsEvents(kind: ProviderEventKind): boolean {
    return this.registered.has(TOPIC_OF[kind]);
  }

  /** This deployment's events are wanted at `url`: its registrations count from now on. */
  expectAt(url: string): void {
    this.url = url;
    void this.refresh();
  }

  /** The webhook of `topic` is registered (this process registered it just now). */
  noteRegistered(topic: ProviderWebhookTopic): void {
    this.registered.add(topic);
  }

  /** An event of `topic` was received by this process just now. */
  noteReceived(topic: ProviderWebhookTopic): void {
    this.lastEventAt.set(topic, this.clock.now().getTime());
  }

  private async refresh(): Promise<void> {
    try {
      if (this.url) {
        // Registrations are only ever added (a webhook the provider forgot is registered again at its recheck).
        for (const topic of await this.webhooks.activeTopics(this.url)) this.registered.add(topic);
      }
      for (const [topic, ageSeconds] of await this.webhooks.eventAges()) {
        this.lastEventAt.set(topic, Math.max(this.lastEventAt.get(topic) ?? 0, this.clock.now().getTime() - ageSeconds * 1000));
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'Could not read when provider webhooks last arrived; keeping what is known');
    }
  }
}
