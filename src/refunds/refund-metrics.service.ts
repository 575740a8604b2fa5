import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service';

/** Refund metrics, counted as refunds end and as the engine meets faults. */
@Injectable()
export class RefundMetricsService {
  readonly refunds: Counter<'to' | 'outcome'>;
  readonly technicalFailures: Counter<'kind'>;
  readonly adopted: Counter;

  constructor(metrics: MetricsService) {
    this.refunds = metrics.counter({
      name: 'billing_refunds_total',
      help: 'Refunds that reached a final status, by destination (card, balance) and outcome (succeeded, failed)',
      labelNames: ['to', 'outcome'],
    });
    this.technicalFailures = metrics.counter({
      name: 'billing_refund_technical_failures_total',
      help: 'Refund steps left for a later retry (the same request) after a provider or network fault, by provider error kind',
      labelNames: ['kind'],
    });
    this.adopted = metrics.counter({
      name: 'billing_refunds_adopted_total',
      help: "Refunds the provider already held under a refund's externalID (made by an earlier process, or before a database restore), followed instead of made again",
    });
  }
}
