import { Injectable, OnModuleInit } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { RetentionService } from '../common/retention/retention.service';
import { EventsRepository } from './events.repository';

/** Events are kept this long (the contract promises at least 30 days), counted in real time. */
export const EVENT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/** Deletes events past their retention, at the hourly retention sweep. */
@Injectable()
export class EventRetentionService implements OnModuleInit {
  constructor(
    private readonly events: EventsRepository,
    private readonly retention: RetentionService,
    private readonly clock: SystemClock,
  ) {}

  onModuleInit(): void {
    this.retention.register('events', () => this.prune());
  }

  /** Answers how many events were deleted. */
  prune(): Promise<number> {
    return this.events.pruneBefore(new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS));
  }
}
