import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';

/** Idempotency records are kept this long: well past the 24 hours a client may rely on for its retries. */
const IDEMPOTENCY_RETENTION_DAYS = 7;
const PRUNE_EVERY_MS = 3_600_000;

/** Deletes idempotency records past their retention, hourly, in the processes that run the scheduler. */
@Injectable()
export class IdempotencyRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyRetentionService.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Answers how many records were deleted. */
  async prune(): Promise<number> {
    try {
      const [, deleted] = (await this.dataSource.query(`DELETE FROM idempotency_records WHERE created_at < now() - make_interval(days => $1)`, [
        IDEMPOTENCY_RETENTION_DAYS,
      ])) as [unknown, number];
      return deleted;
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not prune old idempotency records; the next hour tries again');
      return 0;
    }
  }
}
