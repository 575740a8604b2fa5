import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Payment } from '../../gateway/provider-api.types';
import { cardDetails } from '../cards/card-details';
import { chargeOutcome, failureTree } from '../cards/card-outcomes';
import { BodyReader } from '../http/body-reader';
import type { Credential } from '../http/credential';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { SandboxConfig } from '../sandbox-config';
import type { InvoiceRecord, PaymentRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { IdempotencyService } from './idempotency.service';
import { InvoicesService } from './invoices.service';
import { OutcomeScriptService } from './outcome-script.service';
import { paymentView } from './payment-views';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookEventsService } from './webhook-events.service';

/** Charges of bound customers (CustomerPayer) on invoices: pending, then captured or failed after paymentMs. */
@Injectable()
export class PaymentsService implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly invoices: InvoicesService,
    private readonly idempotency: IdempotencyService,
    private readonly outcomes: OutcomeScriptService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Payments still pending when the state file was saved finish after a restart. */
  onApplicationBootstrap(): void {
    for (const [invoiceID, record] of this.store.state.invoices) {
      for (const payment of record.payments) {
        if (payment.payment.status === 'pending') this.scheduleCompletion(invoiceID, payment.payment.id);
        if (payment.payment.status === 'processed') this.scheduler.after(this.config.delays.captureMs, () => this.capture(invoiceID, payment.payment.id));
      }
    }
  }

  /** Operation 6 (v1 and v2 paths). */
  create(invoiceID: string, body: unknown, credential: Credential): ProviderReply {
    const params = BodyReader.root(body, 'PaymentParams');
    // The sandbox simulates instant (auto-captured) payments only; holds are outside the spec.
    const flowType = params.requireObject('flow').requireString('type', { oneOf: ['PaymentFlowInstant'] }) as 'PaymentFlowInstant';
    const payer = params.requireObject('payer');
    payer.requireString('payerType', { oneOf: ['CustomerPayer'] });
    const customerID = payer.requireString('customerID', { min: 1, max: 40 });
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });
    const metadata = params.optionalRecord('metadata');
    const makeRecurrent = params.optionalBoolean('makeRecurrent') ?? false;
    params.optionalString('processingDeadline', { min: 1, max: 40 });
    const invoice = this.invoices.require(invoiceID);

    const features = { invoiceID, flow: { type: flowType }, payer: { payerType: 'CustomerPayer', customerID }, makeRecurrent };
    const existingID = this.idempotency.existing('createPayment', externalID, features);
    const existing = existingID !== undefined ? invoice.payments[Number(existingID) - 1] : undefined;
    if (existing) return created(paymentView(existing.payment, credential));

    if (invoice.invoice.status !== 'unpaid') throw ProviderError.capi400('invalidInvoiceStatus', 'Invalid invoice status');
    if (invoice.payments.some((p) => p.payment.status === 'pending' || p.payment.status === 'processed')) {
      throw ProviderError.capi400('invoicePaymentPending', 'Invoice payment pending');
    }
    const { state } = this.store;
    const customer = state.customers.get(customerID);
    if (!customer) throw ProviderError.capi400('invalidRequest', 'Customer not found');
    if (customer.customer.shopID !== invoice.invoice.shopID) throw ProviderError.capi400('invalidRequest', 'Invalid customer');
    const binding = customer.activeBindingID !== undefined ? state.bindings.get(customer.activeBindingID) : undefined;
    if (customer.customer.status !== 'ready' || !binding) throw ProviderError.capi400('invalidRequest', 'Specified customer is not ready');

    const payment: Payment = {
      id: String(invoice.payments.length + 1),
      invoiceID,
      createdAt: new Date().toISOString(),
      amount: invoice.invoice.amount,
      currency: invoice.invoice.currency,
      flow: { type: flowType },
      payer: { payerType: 'CustomerPayer', customerID, paymentToolDetails: cardDetails(binding.card) } as Payment['payer'],
      ...(externalID !== undefined ? { externalID } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
      status: 'pending',
    };
    const plannedOutcome = this.outcomes.take(customerID) ?? chargeOutcome(binding.card.group);
    invoice.payments.push({ payment, customerID, bindingID: binding.binding.id, plannedOutcome });
    state.paymentOrder.push({ invoiceID, paymentID: payment.id });
    this.invoices.emit(invoice, [{ changeType: 'PaymentStarted', payment: structuredClone(payment) }]);
    this.webhookEvents.payment(invoice, invoice.payments[invoice.payments.length - 1], 'PaymentStarted');
    this.idempotency.remember('createPayment', externalID, features, payment.id);
    this.scheduleCompletion(invoiceID, payment.id);
    return created(paymentView(payment, credential));
  }

  /** GET /v2/processing/invoices/{id}/payments/{paymentID}. */
  get(invoiceID: string, paymentID: string, credential: Credential): ProviderReply {
    const invoice = this.invoices.require(invoiceID);
    const record = findPayment(invoice, paymentID);
    if (!record) throw ProviderError.capi404('Payment not found');
    return ok(paymentView(record.payment, credential));
  }

  /** GET /v2/processing/invoices/{id}/payments. */
  list(invoiceID: string, credential: Credential): ProviderReply {
    const invoice = this.invoices.require(invoiceID);
    return ok(invoice.payments.map((p) => paymentView(p.payment, credential)));
  }

  private scheduleCompletion(invoiceID: string, paymentID: string): void {
    this.scheduler.after(this.config.delays.paymentMs, () => this.complete(invoiceID, paymentID));
  }

  /** The issuer's answer: captured (the invoice is paid) or failed with the merchant's error tree. */
  private complete(invoiceID: string, paymentID: string): void {
    const invoice = this.store.state.invoices.get(invoiceID);
    const record = invoice ? findPayment(invoice, paymentID) : undefined;
    if (!invoice || !record || record.payment.status !== 'pending') return;
    const { payment } = record;
    if (record.plannedOutcome === 'success') {
      payment.status = 'processed';
      this.invoices.emit(invoice, [{ changeType: 'PaymentStatusChanged', paymentID, status: 'processed' }]);
      this.webhookEvents.payment(invoice, record, 'PaymentProcessed');
      if (this.config.delays.captureMs === 0) return this.capture(invoiceID, paymentID);
      this.scheduler.after(this.config.delays.captureMs, () => this.capture(invoiceID, paymentID));
    } else {
      payment.status = 'failed';
      payment.error = failureTree(record.plannedOutcome);
      this.invoices.emit(invoice, [{ changeType: 'PaymentStatusChanged', paymentID, status: 'failed', error: failureTree(record.plannedOutcome) }]);
      this.webhookEvents.payment(invoice, record, 'PaymentFailed');
      // A failed payment leaves the invoice open, unless its due date has passed meanwhile.
      this.invoices.refresh(invoice);
    }
    this.store.changed();
  }

  /** A processed payment captured (captureMs after it was processed): the invoice is paid. */
  private capture(invoiceID: string, paymentID: string): void {
    const invoice = this.store.state.invoices.get(invoiceID);
    const record = invoice ? findPayment(invoice, paymentID) : undefined;
    if (!invoice || !record || record.payment.status !== 'processed') return;
    const { payment } = record;
    payment.status = 'captured';
    record.capturedAt = new Date().toISOString();
    invoice.invoice.status = 'paid';
    this.invoices.emit(invoice, [
      { changeType: 'PaymentStatusChanged', paymentID, status: 'captured' },
      { changeType: 'InvoiceStatusChanged', status: 'paid' },
    ]);
    this.webhookEvents.payment(invoice, record, 'PaymentCaptured');
    this.webhookEvents.invoice(invoice, 'InvoicePaid');
    this.store.changed();
  }
}

/** Payment "n" of the invoice, or undefined. */
export function findPayment(invoice: InvoiceRecord, paymentID: string): PaymentRecord | undefined {
  const index = /^[1-9]\d*$/.test(paymentID) ? Number(paymentID) - 1 : -1;
  return invoice.payments[index];
}
