import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service';

/** How merchant webhook deliveries go, and which endpoints keep failing. */
@Injectable()
export class WebhookMetricsService {
  /** result: succeeded, retrying (failed, tried again later), failed (given up), canceled, deferred (endpoint at its cap). */
  readonly deliveries: Counter<'result'>;
  readonly consecutiveFailures: Gauge<'endpoint'>;
  readonly duration: Histogram<'result'>;

  constructor(metrics: MetricsService) {
    this.deliveries = metrics.counter({ name: 'webhook_deliveries_total', help: 'Webhook delivery attempts and their outcome, by result', labelNames: ['result'] });
    this.consecutiveFailures = metrics.gauge({
      name: 'webhook_endpoint_consecutive_failures',
      help: 'Failed attempts in a row of each webhook endpoint, as last seen by this process (0 once one succeeds)',
      labelNames: ['endpoint'],
    });
    this.duration = metrics.histogram({
      name: 'webhook_delivery_duration_seconds',
      help: 'Time from sending a webhook to its answer (or the timeout)',
      labelNames: ['result'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
  }
}
