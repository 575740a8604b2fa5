import { Global, Module } from '@nestjs/common';
import { Clock } from './clock/clock';
import { SystemClock } from './clock/system-clock';
import { MetricsService } from './metrics/metrics.service';
import { ShutdownSignal } from './shutdown-signal';

/** Cross-cutting services every domain may use: the clock, metrics, shutdown state. */
@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }, MetricsService, ShutdownSignal],
  exports: [Clock, MetricsService, ShutdownSignal],
})
export class CommonModule {}
