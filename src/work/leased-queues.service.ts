import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, ObjectLiteral } from 'typeorm';
import { LeasedQueue, LeasedQueueDefinition } from './leased-queue';
import { WorkMetricsService } from './work-metrics.service';
import { WorkerRegistryService } from './worker-registry.service';

/** Makes a domain's table a queue of the work engine: the definition is the domain's, the machinery the engine's. */
@Injectable()
export class LeasedQueues {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: WorkerRegistryService,
    private readonly metrics: WorkMetricsService,
  ) {}

  create<T extends ObjectLiteral>(definition: LeasedQueueDefinition<T>): LeasedQueue<T> {
    return new LeasedQueue(this.dataSource, this.registry, this.metrics, definition);
  }
}
