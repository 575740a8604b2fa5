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
  readonly skippedPeriods: Counter;
  readonly adoptedInvoices: Counter;
  readonly invoiceConflicts: Counter;
  readonly failedSubscriptions: Counter;
  readonly subscriptionsInError: Gauge;

  constructor(metrics: MetricsService) {
    this.charges = metrics.counter({ name: 'billing_charges_total', help: 'Charges by outcome', labelNames: ['outcome'] });
    this.dunningAttempts = metrics.counter({ name: 'billing_dunning_attempts_total', help: 'Payment attempts after a decline, by result', labelNames: ['result'] });
    this.dueBacklog = metrics.gauge({ name: 'billing_due_backlog', help: 'Subscriptions due and charges waiting for work, at the last pass' });
    this.oldestDueAgeSeconds = metrics.gauge({ name: 'billing_oldest_due_age_seconds', help: 'Age of the oldest due work item, at the last pass' });
    this.passes = metrics.counter({ name: 'billing_passes_total', help: 'Billing passes run' });
    this.skippedPeriods = metrics.counter({
      name: 'billing_periods_skipped_total',
      help: 'Periods missed beyond BILLING_MAX_CATCH_UP_PERIODS after downtime, recorded as skipped charges and never charged',
    });
    this.adoptedInvoices = metrics.counter({
      name: 'billing_invoices_adopted_total',
      help: "Invoices a charge found already made for its period (e.g. after a database restore) and took over with their payments instead of paying again",
    });
    this.invoiceConflicts = metrics.counter({
      name: 'billing_invoice_conflicts_total',
      help: "Invoice creates the provider refused because the period's externalID already names an invoice with other features; each costs a read-back",
    });
    this.failedSubscriptions = metrics.counter({
      name: 'billing_subscriptions_failed_total',
      help: 'Due periods a pass could not make into a charge (a row the database refused, an amount past the limit): the subscription was recorded and left out, the others billed',
    });
    this.subscriptionsInError = metrics.gauge({ name: 'billing_subscriptions_in_error', help: 'Billable subscriptions whose due period passes cannot bill (billingError set), at the last pass' });
  }
}
