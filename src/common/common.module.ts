import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { Clock } from './clock/clock';
import { ClockRefreshInterceptor } from './clock/clock-refresh.interceptor';
import { SystemClock } from './clock/system-clock';
import { TestClockController } from './clock/test-clock.controller';
import { TestClockState } from './clock/test-clock.entity';
import { TestClockRepository } from './clock/test-clock.repository';
import { TestClockService } from './clock/test-clock.service';
import { ActorContextInterceptor } from './auth/actor-context.interceptor';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { IdempotencyRecordsRepository } from './http/idempotency-records.repository';
import { IdempotencyRetentionService } from './http/idempotency-retention.service';
import { IdempotencyRecord } from './http/idempotency-record.entity';
import { WriteScopeInterceptor } from './http/write-scope.interceptor';
import { MetricsService } from './metrics/metrics.service';
import { RetentionService } from './retention/retention.service';
import { ShutdownSignal } from './shutdown-signal';

/** Cross-cutting services every domain may use: the clock, metrics, shutdown state, idempotent POSTs. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TestClockState, IdempotencyRecord])],
  controllers: [TestClockController],
  providers: [
    {
      provide: Clock,
      inject: [AppConfig, TestClockRepository],
      useFactory: (config: AppConfig, clock: TestClockRepository) => (config.testClock ? new TestClockService(clock) : new SystemClock()),
    },
    // Real time, for work that has no business calendar (payouts, polling cadences).
    SystemClock,
    MetricsService,
    ShutdownSignal,
    TestClockRepository,
    IdempotencyRecordsRepository,
    RetentionService,
    IdempotencyRetentionService,
    // Outermost: everything the handler and the other interceptors do runs as the request's actor.
    { provide: APP_INTERCEPTOR, useClass: ActorContextInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ClockRefreshInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    // After (inside) the Idempotency-Key's: what it notes is the handler's own statements.
    { provide: APP_INTERCEPTOR, useClass: WriteScopeInterceptor },
  ],
  exports: [Clock, SystemClock, MetricsService, ShutdownSignal, RetentionService],
})
export class CommonModule {}
