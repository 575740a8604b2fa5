import type { InvoiceChange, InvoiceEvent, Payment, PaymentError } from '../../gateway/provider-api.types';
import { clientErrorCode, failurePath } from '../cards/card-outcomes';
import type { Credential } from '../http/credential';

/**
 * The provider shows a failed payment's error by caller: the merchant (API key) gets the whole code tree,
 * the payer (invoice access token) one flat code such as "InsufficientFunds".
 */
export function paymentView(payment: Payment, credential: Credential): Payment {
  if (!payment.error || credential.kind === 'apiKey') return payment;
  return { ...payment, error: clientError(payment.error) };
}

export function invoiceEventsView(events: InvoiceEvent[], credential: Credential): InvoiceEvent[] {
  if (credential.kind === 'apiKey') return events;
  return events.map((event) => ({ ...event, changes: event.changes.map(clientChange) }));
}

function clientChange(change: InvoiceChange): InvoiceChange {
  if (change.changeType === 'PaymentStatusChanged' && change.error) return { ...change, error: clientError(change.error) };
  return change;
}

function clientError(error: PaymentError): PaymentError {
  return { code: clientErrorCode(failurePath(error)) };
}
