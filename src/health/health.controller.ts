import { Controller, Get, Header, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiPublicRoute } from '../common/api-docs/api-route.decorators';
import { PublicRoute } from '../common/http/public-route.decorator';
import { MetricsService } from '../common/metrics/metrics.service';
import { ShutdownSignal } from '../common/shutdown-signal';
import { HealthReportDto } from './health-report.dto';
import { LivenessDto } from './liveness.dto';

/** Readiness answers within this, database or not. */
const READY_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

@ApiTags('Health and metrics')
@Controller()
export class HealthController {
  private migrationsApplied = false;

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
  @ApiPublicRoute({ summary: 'Liveness probe', description: 'The process is up. Never touches the database, so a slow database never restarts the process.' })
  @ApiOkResponse({ type: LivenessDto })
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  /** Ready when the database answers and every migration is applied; 503 otherwise or while shutting down. */
  @PublicRoute()
  @ApiPublicRoute({ summary: 'Readiness probe', description: 'Ready when the database answers and every migration is applied; 503 (never 500) otherwise, or while shutting down.' })
  @ApiOkResponse({ type: HealthReportDto })
  @ApiServiceUnavailableResponse({
    type: HealthReportDto,
    description: 'Not ready: `error` says which check is down and why.',
    example: { status: 'error', info: { process: { status: 'up' } }, error: { database: { status: 'down' } }, details: { process: { status: 'up' }, database: { status: 'down' } } },
  })
  @Get('health/ready')
  // Terminus's own Swagger answers are Swagger 2 shaped (invalid in OpenAPI 3); the ones above replace them.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  ready() {
    return this.health.check([
      () => {
        const indicator = this.indicators.check('process');
        return this.shutdown.isShuttingDown ? indicator.down({ reason: 'shutting down' }) : indicator.up();
      },
      () => this.db.pingCheck('database', { connection: this.dataSource, timeout: READY_TIMEOUT_MS }),
      async () => {
        const indicator = this.indicators.check('migrations');
        // Migrations are applied before the app starts and never undone while it runs: once seen complete, the
        // check costs nothing more, so a database outage costs readiness one ping, never a hung migrations read.
        if (this.migrationsApplied) return indicator.up();
        try {
          const pending = await withTimeout(this.dataSource.showMigrations(), READY_TIMEOUT_MS);
          this.migrationsApplied = !pending;
          return pending ? indicator.down({ reason: 'pending migrations' }) : indicator.up();
        } catch {
          return indicator.down({ reason: 'cannot read the migrations table' });
        }
      },
    ]);
  }

  @PublicRoute()
  @ApiPublicRoute({ summary: 'Prometheus metrics', description: 'Text exposition format 0.0.4.', errors: ['service_unavailable'] })
  @ApiOkResponse({
    description: 'The metrics of this process.',
    content: { 'text/plain': { schema: { type: 'string' }, example: '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 0.42\n' } },
  })
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
