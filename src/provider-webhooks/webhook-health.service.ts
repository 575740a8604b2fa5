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

  /** An event of `topic` was received by this process just now. */
  noteReceived(topic: ProviderWebhookTopic): void {
    this.lastEventAt.set(topic, this.clock.now().getTime());
  }

  private async refresh(): Promise<void> {
    try {
      for (const [topic, ageSeconds] of await this.webhooks.eventAges()) {
        this.lastEventAt.set(topic, Math.max(this.lastEventAt.get(topic) ?? 0, this.clock.now().getTime() - ageSeconds * 1000));
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'Could not read when provider webhooks last arrived; keeping what is known');
    }
  }
}
