import { Injectable } from '@nestjs/common';
import type {
  AccessToken,
  Customer,
  CustomerAndToken,
  CustomerBinding,
  CustomerBindingParams,
  CustomerEvent,
  CustomerParams,
  EventsQuery,
  Invoice,
  InvoiceAndToken,
  InvoiceEvent,
  InvoiceParams,
  Payment,
  PaymentParams,
  PaymentResourceParams,
  PaymentResourceResult,
  Refund,
  RefundParams,
  Webhook,
  WebhookParams,
} from './provider-api.types';
import { deleteTolerantOfReplay } from './delete-tolerant-of-replay';
import { ProviderHttpClient } from './provider-http.client';

const seg = encodeURIComponent;

/**
 * Customers, bindings, invoices and payments (the provider's processing API).
 * Every method throws ProviderError on failure; creates carrying an externalID are retried on unknown outcomes
 * (the provider returns the object it already made), creates without one are not.
 */
@Injectable()
export class ProcessingGateway {
  constructor(private readonly client: ProviderHttpClient) {}

  createCustomer(params: CustomerParams): Promise<CustomerAndToken> {
    return this.client.call({
      operation: 'createCustomer',
      method: 'POST',
      path: '/v2/processing/customers',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getCustomer(customerId: string): Promise<Customer> {
    return this.client.call({ operation: 'getCustomer', method: 'GET', path: `/v2/processing/customers/${seg(customerId)}`, idempotent: true, expect: 'object' });
  }

  /**
   * Mints a new customer access token (the hosted form's credential; the one from createCustomer is handed out once
   * and lives three days). Not retried on unknown outcomes: a lost token is replaced by asking again.
   */
  createCustomerAccessToken(customerId: string): Promise<AccessToken> {
    return this.client.call({
      operation: 'createCustomerAccessToken',
      method: 'POST',
      path: `/v2/processing/customers/${seg(customerId)}/access-tokens`,
      idempotent: false,
      expect: 'object',
    });
  }

  createBinding(customerId: string, params: CustomerBindingParams): Promise<CustomerBinding> {
    return this.client.call({
      operation: 'createBinding',
      method: 'POST',
      path: `/v2/processing/customers/${seg(customerId)}/bindings`,
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getBinding(customerId: string, bindingId: string): Promise<CustomerBinding> {
    return this.client.call({
      operation: 'getBinding',
      method: 'GET',
      path: `/v2/processing/customers/${seg(customerId)}/bindings/${seg(bindingId)}`,
      idempotent: true,
      expect: 'object',
    });
  }

  getCustomerEvents(customerId: string, query: EventsQuery): Promise<CustomerEvent[]> {
    return this.client.call({
      operation: 'getCustomerEvents',
      method: 'GET',
      path: `/v2/processing/customers/${seg(customerId)}/events`,
      query: { limit: query.limit, eventID: query.eventID },
      idempotent: true,
      expect: 'array',
    });
  }

  createInvoice(params: InvoiceParams): Promise<InvoiceAndToken> {
    return this.client.call({
      operation: 'createInvoice',
      method: 'POST',
      path: '/v2/processing/invoices',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getInvoice(invoiceId: string): Promise<Invoice> {
    return this.client.call({ operation: 'getInvoice', method: 'GET', path: `/v2/processing/invoices/${seg(invoiceId)}`, idempotent: true, expect: 'object' });
  }

  /**
   * The invoice made under `externalID` (the provider's getInvoiceByExternalID): how a create whose features differ
   * from the first one (409) meets the invoice it already made.
   */
  getInvoiceByExternalId(externalID: string): Promise<Invoice> {
    return this.client.call({
      operation: 'getInvoiceByExternalId',
      method: 'GET',
      path: '/v2/processing/invoices',
      query: { externalID },
      idempotent: true,
      expect: 'object',
    });
  }

  getInvoiceEvents(invoiceId: string, query: EventsQuery): Promise<InvoiceEvent[]> {
    return this.client.call({
      operation: 'getInvoiceEvents',
      method: 'GET',
      path: `/v2/processing/invoices/${seg(invoiceId)}/events`,
      query: { limit: query.limit, eventID: query.eventID },
      idempotent: true,
      expect: 'array',
    });
  }

  /** Mints a new invoice access token (e.g. when the one from createInvoice has expired). Not retried on unknown outcomes. */
  createInvoiceAccessToken(invoiceId: string): Promise<AccessToken> {
    return this.client.call({
      operation: 'createInvoiceAccessToken',
      method: 'POST',
      path: `/v2/processing/invoices/${seg(invoiceId)}/access-tokens`,
      idempotent: false,
      expect: 'object',
    });
  }

  /** Charges the invoice. Authorized by the invoice access token, not the API key (spec operation 6, a v1 path). */
  createPayment(invoiceId: string, invoiceAccessToken: string, params: PaymentParams): Promise<Payment> {
    return this.client.call({
      operation: 'createPayment',
      method: 'POST',
      path: `/v1/processing/invoices/${seg(invoiceId)}/payments`,
      body: params,
      credential: invoiceAccessToken,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getPayment(invoiceId: string, paymentId: string): Promise<Payment> {
    return this.client.call({
      operation: 'getPayment',
      method: 'GET',
      path: `/v2/processing/invoices/${seg(invoiceId)}/payments/${seg(paymentId)}`,
      idempotent: true,
      expect: 'object',
    });
  }

  /** Every payment of an invoice, oldest first (ids are the invoice's own sequence). */
  getPayments(invoiceId: string): Promise<Payment[]> {
    return this.client.call({
      operation: 'getPayments',
      method: 'GET',
      path: `/v2/processing/invoices/${seg(invoiceId)}/payments`,
      idempotent: true,
      expect: 'array',
    });
  }

  /**
   * Refunds (part of) a captured payment, with the merchant's API key (the invoice's token may not refund). With an
   * externalID a repeat of the same body answers the refund the first one made, in its current status.
   */
  createRefund(invoiceId: string, paymentId: string, params: RefundParams): Promise<Refund> {
    return this.client.call({
      operation: 'createRefund',
      method: 'POST',
      path: `/v2/processing/invoices/${seg(invoiceId)}/payments/${seg(paymentId)}/refunds`,
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getRefund(invoiceId: string, paymentId: string, refundId: string): Promise<Refund> {
    return this.client.call({
      operation: 'getRefund',
      method: 'GET',
      path: `/v2/processing/invoices/${seg(invoiceId)}/payments/${seg(paymentId)}/refunds/${seg(refundId)}`,
      idempotent: true,
      expect: 'object',
    });
  }

  /** Every refund of a payment, whatever its status. */
  getRefunds(invoiceId: string, paymentId: string): Promise<Refund[]> {
    return this.client.call({
      operation: 'getRefunds',
      method: 'GET',
      path: `/v2/processing/invoices/${seg(invoiceId)}/payments/${seg(paymentId)}/refunds`,
      idempotent: true,
      expect: 'array',
    });
  }

  /** The refund made under `externalID`: how a create refused 409 (its features differ) meets the refund it made. */
  getRefundByExternalId(externalID: string): Promise<Refund> {
    return this.client.call({ operation: 'getRefundByExternalId', method: 'GET', path: '/v2/processing/refunds', query: { externalID }, idempotent: true, expect: 'object' });
  }

  /** Tokenizes card data for a binding. The body holds the card: it never reaches a log or an error. */
  createPaymentResource(params: PaymentResourceParams): Promise<PaymentResourceResult> {
    return this.client.call({
      operation: 'createPaymentResource',
      method: 'POST',
      path: '/v2/processing/payment-resources',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  /** The party's webhooks (every shop and topic). */
  listWebhooks(): Promise<Webhook[]> {
    return this.client.call({ operation: 'listWebhooks', method: 'GET', path: '/v2/processing/webhooks', idempotent: true, expect: 'array' });
  }

  /**
   * Registers a webhook; the answer carries the public key that verifies its deliveries. There is no externalID, so an
   * unknown outcome is not retried: list the webhooks to learn whether it was made.
   */
  createWebhook(params: WebhookParams): Promise<Webhook> {
    return this.client.call({ operation: 'createWebhook', method: 'POST', path: '/v2/processing/webhooks', body: params, idempotent: false, expect: 'object' });
  }

  /** Deletes a webhook. A repeat after a lost answer that finds it gone counts as done; a plain 404 is not_found. */
  async deleteWebhook(webhookId: string): Promise<void> {
    await deleteTolerantOfReplay(() =>
      this.client.call<void>({ operation: 'deleteWebhook', method: 'DELETE', path: `/v2/processing/webhooks/${seg(webhookId)}`, idempotent: true, expect: 'none' }),
    );
  }
}

