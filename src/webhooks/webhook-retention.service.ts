import { Injectable, OnModuleInit } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { RetentionService } from '../common/retention/retention.service';
import { EVENT_RETENTION_DAYS } from '../events/event-retention.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const DAY_MS = 86_400_000;

/** Deletes attempts and finished deliveries as old as the events they were about, at the hourly retention sweep. */
@Injectable()
export class WebhookRetentionService implements OnModuleInit {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly retention: RetentionService,
    private readonly clock: SystemClock,
  ) {}

  onModuleInit(): void {
    this.retention.register('webhook attempts and deliveries', () => this.prune());
  }

  prune(): Promise<number> {
    return this.deliveries.pruneBefore(new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS));
  }
}
