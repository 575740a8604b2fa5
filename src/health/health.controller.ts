import { Controller, Get, Header, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PublicRoute } from '../common/http/public-route.decorator';
import { MetricsService } from '../common/metrics/metrics.service';
import { ShutdownSignal } from '../common/shutdown-signal';

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly shutdown: ShutdownSignal,
    private readonly metrics: MetricsService,
  ) {}

  /** The process answers; no dependency is checked, so a slow database never restarts the pod. */
  @PublicRoute()
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  /** Ready when the database answers and every migration is applied; 503 otherwise or while shutting down. */
  @PublicRoute()
  @Get('health/ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => {
        const indicator = this.indicators.check('process');
        return this.shutdown.isShuttingDown ? indicator.down({ reason: 'shutting down' }) : indicator.up();
      },
      () => this.db.pingCheck('database', { connection: this.dataSource, timeout: 2000 }),
      async () => {
        const indicator = this.indicators.check('migrations');
        try {
          const pending = await this.dataSource.showMigrations();
          return pending ? indicator.down({ reason: 'pending migrations' }) : indicator.up();
        } catch {
          return indicator.down({ reason: 'cannot read the migrations table' });
        }
      },
    ]);
  }

  @PublicRoute()
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    try {
      return await this.metrics.render();
    } catch {
      throw new ServiceUnavailableException('metrics unavailable');
    }
  }
}
