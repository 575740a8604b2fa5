import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { AppConfig } from '../config/app-config';
import { EventsRepository } from './events.repository';

/** Events are kept this long (the contract promises at least 30 days), counted in real time. */
export const EVENT_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Deletes events past their retention, hourly, in the processes that run the scheduler. */
@Injectable()
export class EventRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRetentionService.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventsRepository,
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

  /** Answers how many events were deleted. */
  async prune(): Promise<number> {
    try {
      return await this.events.pruneBefore(new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS));
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not prune old events; the next hour tries again');
      return 0;
    }
  }
}
