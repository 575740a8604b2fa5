import type {
  Customer,
  CustomerBinding,
  Invoice,
  Payment,
  Refund,
  WebhookCustomer,
  WebhookCustomerBinding,
  WebhookInvoice,
  WebhookPayment,
  WebhookRefund,
} from '../../gateway/provider-api.types';

/**
 * The objects as the provider's webhooks show them, which is not quite as its API does: no externalIDs, and a
 * payment without invoiceID or flow (the event's invoice names it). Callers serialise them at once.
 */

export function webhookInvoice(invoice: Invoice): WebhookInvoice {
  return {
    id: invoice.id,
    shopID: invoice.shopID,
    createdAt: invoice.createdAt,
    status: invoice.status,
    ...(invoice.reason !== undefined ? { reason: invoice.reason } : {}),
    dueDate: invoice.dueDate,
    amount: invoice.amount,
    currency: invoice.currency,
    metadata: invoice.metadata,
    product: invoice.product,
    ...(invoice.description !== undefined ? { description: invoice.description } : {}),
    ...(invoice.cart !== undefined ? { cart: invoice.cart } : {}),
  };
}

/**
 * A customer-payer payment: the payment session and tool token are the bound card's, the contact the customer's.
 * The error is the merchant's full code tree.
 */
export function webhookPayment(payment: Payment, customer: Customer, binding: CustomerBinding | undefined): WebhookPayment {
  return {
    id: payment.id,
    createdAt: payment.createdAt,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    paymentSession: binding?.paymentResource.paymentSession ?? '',
    contactInfo: customer.contactInfo,
    payer: { payerType: 'CustomerPayer' as const, customerID: payment.payer.customerID },
    ...(binding ? { paymentToolToken: binding.paymentResource.paymentToolToken } : {}),
    ...(payment.metadata !== undefined ? { metadata: payment.metadata } : {}),
    ...(payment.error !== undefined ? { error: payment.error } : {}),
  };
}

/** A refund as the webhook shows it: the error's message is its code again, as the provider's sender builds it. */
export function webhookRefund(refund: Refund): WebhookRefund {
  return {
    id: refund.id,
    createdAt: refund.createdAt,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    ...(refund.reason !== undefined ? { reason: refund.reason } : {}),
    ...(refund.error !== undefined ? { error: { code: refund.error.code, message: refund.error.code } } : {}),
  };
}

export function webhookCustomer(customer: Customer): WebhookCustomer {
  return { id: customer.id, shopID: customer.shopID, status: customer.status, contactInfo: customer.contactInfo, metadata: customer.metadata };
}

export function webhookBinding(binding: CustomerBinding): WebhookCustomerBinding {
  return {
    id: binding.id,
    paymentResource: binding.paymentResource,
    status: binding.status,
    ...(binding.error !== undefined ? { error: binding.error } : {}),
  };
}
