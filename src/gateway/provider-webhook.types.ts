/**
 * Wire shapes of the provider's webhooks: registration (processing and wallet) and the events it then POSTs to
 * the registered URL. Re-exported by provider-api.types.ts; shared by the gateway, the sandbox and the receiver.
 */
import type {
  ContactInfo,
  CustomerBinding,
  CustomerStatus,
  Destination,
  InvoiceLine,
  InvoiceStatus,
  PaymentError,
  PaymentStatus,
  RefundError,
  RefundStatus,
  Withdrawal,
} from './provider-api.types';

// ---- Processing webhooks (/v2/processing/webhooks) ----

export const INVOICE_WEBHOOK_EVENT_TYPES = [
  'InvoiceCreated',
  'InvoicePaid',
  'InvoiceCancelled',
  'InvoiceFulfilled',
  'PaymentStarted',
  'PaymentProcessed',
  'PaymentCaptured',
  'PaymentCancelled',
  'PaymentRefunded',
  'PaymentFailed',
  'PaymentRefundCreated',
  'PaymentRefundSucceeded',
  'PaymentRefundFailed',
  'PaymentUserInteractionRequested',
  'PaymentUserInteractionCompleted',
] as const;
export type InvoiceWebhookEventType = (typeof INVOICE_WEBHOOK_EVENT_TYPES)[number];

export const CUSTOMER_WEBHOOK_EVENT_TYPES = [
  'CustomerCreated',
  'CustomerDeleted',
  'CustomerReady',
  'CustomerBindingStarted',
  'CustomerBindingSucceeded',
  'CustomerBindingFailed',
] as const;
export type CustomerWebhookEventType = (typeof CUSTOMER_WEBHOOK_EVENT_TYPES)[number];

export type WebhookScope =
  | { topic: 'InvoicesTopic'; shopID: string; eventTypes: InvoiceWebhookEventType[] }
  | { topic: 'CustomersTopic'; shopID: string; eventTypes: CustomerWebhookEventType[] };

export interface WebhookParams {
  scope: WebhookScope;
  /** Where the provider POSTs the events; at most 1000 characters. */
  url: string;
}

export interface Webhook extends WebhookParams {
  /** A decimal number as a string. */
  id: string;
  active: boolean;
  partyID?: string;
  /** Standard base64 of the DER SubjectPublicKeyInfo of the RSA key that signs deliveries (no PEM armour). */
  publicKey: string;
}

// ---- Wallet webhooks (/wallet/v0/webhooks) ----

export const WITHDRAWAL_WEBHOOK_EVENT_TYPES = ['WithdrawalStarted', 'WithdrawalSucceeded', 'WithdrawalFailed'] as const;
type WithdrawalWebhookEventType = (typeof WITHDRAWAL_WEBHOOK_EVENT_TYPES)[number];

export const DESTINATION_WEBHOOK_EVENT_TYPES = ['DestinationCreated', 'DestinationUnauthorized', 'DestinationAuthorized'] as const;
type DestinationWebhookEventType = (typeof DESTINATION_WEBHOOK_EVENT_TYPES)[number];

export type WalletWebhookScope =
  | { topic: 'WithdrawalsTopic'; walletID?: string; eventTypes: WithdrawalWebhookEventType[] }
  | { topic: 'DestinationsTopic'; eventTypes: DestinationWebhookEventType[] };

export interface WalletWebhookParams {
  identityID: string;
  scope: WalletWebhookScope;
  url: string;
}

export interface WalletWebhook extends WalletWebhookParams {
  id: string;
  active: boolean;
  /** One key per identity: verify wallet events with this key, processing events with the processing webhook's. */
  publicKey: string;
}

// ---- Delivered processing events (POST <url>, header Content-Signature) ----

/** The invoice as a webhook shows it (no externalID). */
export interface WebhookInvoice {
  id: string;
  shopID: string;
  createdAt: string;
  status: InvoiceStatus;
  reason?: string;
  dueDate: string;
  amount: number;
  currency: string;
  metadata: Record<string, unknown>;
  product: string;
  description?: string;
  cart?: InvoiceLine[];
}

/** The payment as a webhook shows it: no invoiceID, flow or externalID; correlate through `invoice.id`. */
export interface WebhookPayment {
  id: string;
  createdAt: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  paymentSession: string;
  contactInfo: ContactInfo;
  payer: { payerType: 'CustomerPayer'; customerID: string };
  paymentToolToken?: string;
  metadata?: Record<string, unknown>;
  error?: PaymentError;
}

/** The refund as a webhook shows it: no externalID or cart; the event's invoice and payment name what it refunds. */
export interface WebhookRefund {
  id: string;
  createdAt: string;
  status: RefundStatus;
  amount: number;
  currency: string;
  reason?: string;
  /** The webhook repeats the code as the message. */
  error?: RefundError;
}

/**
 * Refund events are delivered under other names than the ones a webhook subscribes to: `RefundCreated` for
 * `PaymentRefundCreated`, and so on.
 */
export const REFUND_EVENT_SUBSCRIPTIONS = {
  RefundCreated: 'PaymentRefundCreated',
  RefundSucceeded: 'PaymentRefundSucceeded',
  RefundFailed: 'PaymentRefundFailed',
} as const satisfies Record<string, InvoiceWebhookEventType>;

export interface WebhookCustomer {
  id: string;
  shopID: string;
  status: CustomerStatus;
  contactInfo: ContactInfo;
  metadata: Record<string, unknown>;
}

export type WebhookCustomerBinding = Pick<CustomerBinding, 'id' | 'paymentResource' | 'status' | 'error'>;

/** Common head of a processing event. `occuredAt` is spelt with one "r", as the provider sends it. */
interface ProcessingEventHead {
  /** An integer (wallet events use a string). */
  eventID: number;
  occuredAt: string;
}

type InvoicesTopicEvent = ProcessingEventHead & { topic: 'InvoicesTopic' } & (
    | { eventType: 'InvoiceCreated' | 'InvoicePaid' | 'InvoiceCancelled' | 'InvoiceFulfilled'; invoice: WebhookInvoice }
    | {
        eventType: 'PaymentStarted' | 'PaymentProcessed' | 'PaymentCaptured' | 'PaymentCancelled' | 'PaymentRefunded' | 'PaymentFailed';
        invoice: WebhookInvoice;
        payment: WebhookPayment;
      }
    | { eventType: 'RefundCreated' | 'RefundPending' | 'RefundSucceeded' | 'RefundFailed'; invoice: WebhookInvoice; payment: WebhookPayment; refund: WebhookRefund }
  );

type CustomersTopicEvent = ProcessingEventHead & { topic: 'CustomersTopic' } & (
    | { eventType: 'CustomerCreated' | 'CustomerDeleted' | 'CustomerReady'; customer: WebhookCustomer }
    | { eventType: 'CustomerBindingStarted' | 'CustomerBindingSucceeded' | 'CustomerBindingFailed'; customer: WebhookCustomer; binding: WebhookCustomerBinding }
  );

type ProcessingWebhookEvent = InvoicesTopicEvent | CustomersTopicEvent;

// ---- Delivered wallet events ----

/**
 * Common head of a wallet event. `eventID` is a string and numbers the source object's own events, so it repeats
 * across objects: deduplicate by (topic, object id, eventID). The topic is singular here, plural in the scope.
 */
interface WalletEventHead {
  eventID: string;
  occuredAt: string;
}

type WithdrawalTopicEvent = WalletEventHead & { topic: 'WithdrawalTopic' } & (
    | { eventType: 'WithdrawalStarted'; withdrawal: Withdrawal }
    /** No failure details: read the withdrawal to learn why it failed. */
    | { eventType: 'WithdrawalSucceeded' | 'WithdrawalFailed'; withdrawalID: string; externalID?: string }
  );

type DestinationTopicEvent = WalletEventHead & { topic: 'DestinationTopic' } & (
    | { eventType: 'DestinationCreated'; destination: Destination }
    | { eventType: 'DestinationAuthorized' | 'DestinationUnauthorized'; destinationID: string; externalID?: string }
  );

type WalletWebhookEvent = WithdrawalTopicEvent | DestinationTopicEvent;

/** Any event the provider delivers to a registered webhook. */
export type ProviderWebhookEvent = ProcessingWebhookEvent | WalletWebhookEvent;
