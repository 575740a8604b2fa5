import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkMetricsService } from './work-metrics.service';
import { LeasedQueues } from './leased-queues.service';
import { WorkRunnerService } from './work-runner.service';
import { Worker } from './worker.entity';
import { WorkerRegistryService } from './worker-registry.service';
import { WorkersRepository } from './workers.repository';

/** The work engine every domain queue runs on: process registry and heartbeat, metrics, runner loops. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Worker])],
  providers: [WorkersRepository, WorkerRegistryService, LeasedQueues, WorkMetricsService, WorkRunnerService],
  exports: [LeasedQueues, WorkerRegistryService, WorkMetricsService, WorkRunnerService],
})
export class WorkModule {}
