import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { AppConfig } from '../config/app-config';
import { EVENT_RETENTION_DAYS } from '../events/event-retention.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Deletes attempts and finished deliveries as old as the events they were about, hourly, where the scheduler runs. */
@Injectable()
export class WebhookRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookRetentionService.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: AppConfig,
    private readonly clock: SystemClock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async prune(): Promise<number> {
    try {
      return await this.deliveries.pruneBefore(new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS));
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not prune old webhook attempts; the next hour tries again');
      return 0;
    }
  }
}
