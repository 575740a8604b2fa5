import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service';

@Injectable()
export class BillingMetricsService {
  readonly charges: Counter<'outcome'>;
  readonly dunningAttempts: Counter<'result'>;
  readonly dueBacklog: Gauge;
  readonly oldestDueAgeSeconds: Gauge;
  readonly passes: Counter;

  constructor(metrics: MetricsService) {
    this.charges = metrics.counter({ name: 'billing_charges_total', help: 'Charges by outcome', labelNames: ['outcome'] });
    this.dunningAttempts = metrics.counter({ name: 'billing_dunning_attempts_total', help: 'Payment attempts after a decline, by result', labelNames: ['result'] });
    this.dueBacklog = metrics.gauge({ name: 'billing_due_backlog', help: 'Subscriptions due and charges waiting for work, at the last pass' });
    this.oldestDueAgeSeconds = metrics.gauge({ name: 'billing_oldest_due_age_seconds', help: 'Age of the oldest due work item, at the last pass' });
    this.passes = metrics.counter({ name: 'billing_passes_total', help: 'Billing passes run' });
  }
}
