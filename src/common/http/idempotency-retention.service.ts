import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionService } from '../retention/retention.service';
import { IdempotencyRecordsRepository } from './idempotency-records.repository';

/** Idempotency records are kept this long: well past the 24 hours a client may rely on for its retries. */
const IDEMPOTENCY_RETENTION_DAYS = 7;

/** Deletes idempotency records past their retention, at the hourly retention sweep. */
@Injectable()
export class IdempotencyRetentionService implements OnModuleInit {
  constructor(
    private readonly records: IdempotencyRecordsRepository,
    private readonly retention: RetentionService,
  ) {}

  onModuleInit(): void {
    this.retention.register('idempotency records', () => this.prune());
  }

  /** Answers how many records were deleted. */
  prune(): Promise<number> {
    return this.records.pruneOlderThan(IDEMPOTENCY_RETENTION_DAYS);
  }
}
