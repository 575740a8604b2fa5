import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { InvoiceLine, Refund } from '../../gateway/provider-api.types';
import { CARD_GROUPS } from '../cards/card-outcomes';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { QueryParams, queryString } from '../http/query-params';
import { SandboxConfig } from '../sandbox-config';
import type { InvoiceRecord, PaymentRecord, RefundRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { IdempotencyService } from './idempotency.service';
import { InvoicesService, readCartLine } from './invoices.service';
import { findPayment } from './payments.service';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookEventsService } from './webhook-events.service';

const MAX_CART_LINES = 100;
/** Refunds made through the API are numbered per payment from here (ids below are the back office's). */
const FIRST_REFUND_ID = 100;

const cartTotal = (cart: InvoiceLine[]) => cart.reduce((sum, line) => sum + line.price * line.quantity, 0);

/** Where a refund lives, as its idempotency record keeps it: `<invoice>/<payment>/<refund>`. */
const refundKey = (invoiceID: string, paymentID: string, refundID: string) => `${invoiceID}/${paymentID}/${refundID}`;

/**
 * Refunds of captured payments, as the provider makes them: one at a time per payment, partial and repeated up to what
 * was captured, pending and then succeeded (or failed, for a card whose refunds the bank refuses) after `refundMs`. A
 * payment whose remainder reaches zero turns `refunded`; its invoice stays `paid`.
 */
@Injectable()
export class RefundsService implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly invoices: InvoicesService,
    private readonly idempotency: IdempotencyService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Refunds still pending when the state file was saved finish after a restart. */
  onApplicationBootstrap(): void {
    for (const [invoiceID, record] of this.store.state.invoices) {
      for (const payment of record.payments) {
        for (const refund of payment.refunds ?? []) {
          if (refund.refund.status === 'pending') this.scheduleCompletion(invoiceID, payment.payment.id, refund.refund.id);
        }
      }
    }
  }

  /** POST /v2/processing/invoices/{id}/payments/{paymentID}/refunds: checked in the provider's order. */
  create(invoiceID: string, paymentID: string, body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'RefundParams');
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });
    const amount = params.optionalInteger('amount', { min: 1 });
    const currency = params.optionalString('currency', { pattern: /^[A-Z]{3}$/ });
    const reason = params.optionalString('reason', { max: 1000 });
    const cart = params.optionalObjectArray('cart')?.map(readCartLine);
    const allocation = params.raw().allocation;
    if (cart && allocation !== undefined) throw ProviderError.capi400('refundCartConflict', 'Inconsistent Refund Cart');
    if (cart && (cart.length < 1 || cart.length > MAX_CART_LINES)) throw ProviderError.capi400('invalidInvoiceCart', 'Wrong size. Path to item: cart');
    const invoice = this.invoices.require(invoiceID);
    const payment = findPayment(invoice, paymentID);
    if (!payment) throw ProviderError.capi404('Payment not found');

    // The provider compares amount, currency, cart and allocation. It leaves the payment out, which makes an externalID
    // reused on another payment an open question; the sandbox refuses it (409) rather than guess.
    const features = { invoiceID, paymentID, amount, currency, cart, allocation };
    const reserved = this.idempotency.existing('createRefund', externalID, features, (key) => key.split('/')[2]);
    let refundID: string;
    if (reserved !== undefined) {
      refundID = reserved.split('/')[2];
      const existing = payment.refunds?.find((r) => r.refund.id === refundID);
      if (existing) return created(existing.refund);
      // The id was taken by a request the provider refused: the same request is checked again under it.
    } else {
      refundID = String(Math.max(FIRST_REFUND_ID - 1, payment.refundSequence ?? 0) + 1);
      payment.refundSequence = Number(refundID);
      this.idempotency.remember('createRefund', externalID, features, refundKey(invoiceID, paymentID, refundID));
      this.store.changed();
    }

    if (payment.payment.status !== 'captured') throw ProviderError.capi400('invalidPaymentStatus', 'Invalid invoice payment status');
    const refunds = payment.refunds ?? [];
    if (refunds.some((r) => r.refund.status === 'pending')) throw ProviderError.capi400('operationNotPermitted', 'Operation not permitted');
    if (currency !== undefined && currency !== payment.payment.currency) throw ProviderError.capi400('inconsistentRefundCurrency', 'Inconsistent refund currency');
    const remaining = remainingOf(payment);
    const refundAmount = amount ?? remaining;
    if (refundAmount > remaining) throw ProviderError.capi400('invoicePaymentAmountExceeded', 'Payment amount exceeded');
    if (cart && amount === undefined) throw ProviderError.capi400('invalidRequest', 'Refund amount does not match with the cart total amount');
    if (cart && remaining - refundAmount !== cartTotal(cart)) throw ProviderError.capi400('invalidRequest', 'Remaining payment amount not equal cart cost');
    if (allocation !== undefined) throw ProviderError.capi400('allocationNotPermitted', 'Allocation is currently not allowed');

    const refund: Refund = {
      id: refundID,
      createdAt: new Date().toISOString(),
      amount: refundAmount,
      currency: payment.payment.currency,
      status: 'pending',
      ...(externalID !== undefined ? { externalID } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(cart ? { cart: cart.map((line) => ({ ...line, cost: line.price * line.quantity })) } : {}),
    };
    const card = this.store.state.bindings.get(payment.bindingID)?.card;
    const plannedFailure = card ? CARD_GROUPS[card.group].refundFailure : undefined;
    const record: RefundRecord = { refund, ...(plannedFailure ? { plannedFailure } : {}) };
    (payment.refunds ??= []).push(record);
    this.invoices.emit(invoice, [{ changeType: 'RefundStarted', paymentID, refund: structuredClone(refund) }]);
    this.webhookEvents.refund(invoice, payment, record, 'RefundCreated');
    this.scheduleCompletion(invoiceID, paymentID, refundID);
    this.store.changed();
    return created(refund);
  }

  /** GET .../payments/{paymentID}/refunds: every refund of the payment, ordered by id as text (as the provider sorts). */
  list(invoiceID: string, paymentID: string): ProviderReply {
    const payment = this.payment(invoiceID, paymentID);
    const refunds = (payment.refunds ?? []).map((r) => r.refund);
    return ok(refunds.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  }

  /** GET .../payments/{paymentID}/refunds/{refundID}. */
  get(invoiceID: string, paymentID: string, refundID: string): ProviderReply {
    const found = this.payment(invoiceID, paymentID).refunds?.find((r) => r.refund.id === refundID);
    if (!found) throw ProviderError.capi404('Invoice payment refund not found');
    return ok(found.refund);
  }

  /** GET /v2/processing/refunds?externalID=: the refund made under this externalID. */
  findByExternalId(query: QueryParams): ProviderReply {
    const externalID = queryString(query, 'externalID', { required: true, min: 1, max: 40 });
    const key = this.idempotency.idOf('createRefund', externalID);
    const [invoiceID, paymentID, refundID] = key?.split('/') ?? [];
    const invoice = invoiceID !== undefined ? this.store.state.invoices.get(invoiceID) : undefined;
    const found = invoice ? findPayment(invoice, paymentID)?.refunds?.find((r) => r.refund.id === refundID) : undefined;
    if (!found) throw ProviderError.capi404('Refund not found');
    return ok(found.refund);
  }

  private payment(invoiceID: string, paymentID: string): PaymentRecord {
    const payment = findPayment(this.invoices.require(invoiceID), paymentID);
    if (!payment) throw ProviderError.capi404('Payment not found');
    return payment;
  }

  private scheduleCompletion(invoiceID: string, paymentID: string, refundID: string): void {
    this.scheduler.after(this.config.delays.refundMs, () => this.complete(invoiceID, paymentID, refundID));
  }

  /** The bank's answer: succeeded (the payment `refunded` once nothing remains), or failed with the card's error. */
  private complete(invoiceID: string, paymentID: string, refundID: string): void {
    const invoice = this.store.state.invoices.get(invoiceID);
    const payment = invoice ? findPayment(invoice, paymentID) : undefined;
    const record = payment?.refunds?.find((r) => r.refund.id === refundID);
    if (!invoice || !payment || !record || record.refund.status !== 'pending') return;
    const { refund } = record;
    record.finishedAt = new Date().toISOString();
    if (record.plannedFailure) {
      refund.status = 'failed';
      refund.error = { ...record.plannedFailure };
      this.invoices.emit(invoice, [{ changeType: 'RefundStatusChanged', paymentID, refundID, status: 'failed', error: { ...record.plannedFailure } }]);
      this.webhookEvents.refund(invoice, payment, record, 'RefundFailed');
    } else {
      refund.status = 'succeeded';
      this.invoices.emit(invoice, [{ changeType: 'RefundStatusChanged', paymentID, refundID, status: 'succeeded' }]);
      this.webhookEvents.refund(invoice, payment, record, 'RefundSucceeded');
      this.refundedWhole(invoice, payment);
    }
    this.store.changed();
  }

  /** Nothing of the payment remains: it is `refunded` (the invoice keeps its `paid`). */
  private refundedWhole(invoice: InvoiceRecord, payment: PaymentRecord): void {
    if (remainingOf(payment) > 0) return;
    payment.payment.status = 'refunded';
    this.invoices.emit(invoice, [{ changeType: 'PaymentStatusChanged', paymentID: payment.payment.id, status: 'refunded' }]);
    this.webhookEvents.payment(invoice, payment, 'PaymentRefunded');
  }
}

/** What a refund may still take: the payment's amount less its succeeded refunds (failed ones take nothing). */
function remainingOf(payment: PaymentRecord): number {
  const refunded = (payment.refunds ?? []).filter((r) => r.refund.status === 'succeeded').reduce((sum, r) => sum + r.refund.amount, 0);
  return payment.payment.amount - refunded;
}
