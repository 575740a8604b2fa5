/**
 * Wire shapes of the provider API (spec operations 1-14 plus the reads the engine needs), as the
 * provider sends and accepts them. Shared by the gateway (client) and the sandbox (server).
 * Fields the provider's specification leaves out are filled in from its observed behaviour (the sandbox mirrors them).
 */

export interface ContactInfo {
  email?: string;
  phoneNumber?: string;
}

export interface AccessToken {
  payload: string;
}

// ---- Customers and bindings (CAPI v2) ----

export type CustomerStatus = 'unready' | 'ready';

export interface CustomerParams {
  shopID: string;
  contactInfo: ContactInfo;
  metadata: Record<string, unknown>;
  externalID?: string;
}

export interface Customer {
  id: string;
  externalID?: string;
  shopID: string;
  contactInfo: ContactInfo;
  metadata: Record<string, unknown>;
  status: CustomerStatus;
}

export interface CustomerAndToken {
  customer: Customer;
  customerAccessToken: AccessToken;
}

interface PaymentResourceRef {
  paymentToolToken: string;
  paymentSession: string;
}

export interface CustomerBindingParams {
  paymentResource: PaymentResourceRef;
  externalID?: string;
}

export type CustomerBindingStatus = 'pending' | 'succeeded' | 'failed';

export interface BankCardDetails {
  detailsType: 'PaymentToolDetailsBankCard';
  bin?: string;
  first6?: string;
  last4?: string;
  lastDigits?: string;
  cardNumberMask?: string;
  paymentSystem?: string;
}

export interface CustomerBinding {
  id: string;
  externalID?: string;
  paymentResource: {
    paymentToolToken: string;
    paymentSession: string;
    paymentToolDetails?: BankCardDetails;
  };
  status: CustomerBindingStatus;
  error?: { code: string; message: string };
}

export type CustomerChange =
  | { changeType: 'CustomerBindingStarted'; customerBinding: CustomerBinding }
  | { changeType: 'CustomerBindingStatusChanged'; customerBindingID: string; status: CustomerBindingStatus; error?: { code: string; message: string } }
  | { changeType: 'CustomerBindingInteractionRequested'; customerBindingID: string; userInteraction: UserInteraction }
  | { changeType: 'CustomerBindingInteractionCompleted'; customerBindingID: string; userInteraction?: UserInteraction };

export interface CustomerEvent {
  id: number;
  createdAt: string;
  changes: CustomerChange[];
}

export interface UserInteraction {
  interactionType: 'Redirect';
  request:
    | { requestType: 'BrowserGetRequest'; uriTemplate: string }
    | { requestType: 'BrowserPostRequest'; uriTemplate: string; form: { key: string; template: string }[] };
}

// ---- Payment resources (card tokenization for bindings) ----

interface CardData {
  paymentToolType: 'CardData';
  cardNumber: string;
  expDate: string;
  cvv?: string;
  cardHolder?: string;
}

export interface PaymentResourceParams {
  paymentTool: CardData;
  clientInfo: { fingerprint: string; ip?: string; url?: string };
  externalID?: string;
}

export interface PaymentResourceResult {
  paymentToolToken: string;
  paymentSession: string;
  clientInfo: { fingerprint: string; ip?: string };
  paymentToolDetails: BankCardDetails & { bin: string; lastDigits: string; cardNumberMask: string; paymentSystem: string };
  validUntil?: string;
}

// ---- Invoices and payments ----

/** The provider takes a VAT rate as a string, a percentage with its sign (`22%`) or an inclusive fraction (`22/122`). */
export type InvoiceLineTaxRate = string;

export interface InvoiceLine {
  product: string;
  quantity: number;
  price: number;
  cost?: number;
  taxMode?: { type: 'InvoiceLineTaxVAT'; rate: InvoiceLineTaxRate };
}

export interface InvoiceParams {
  shopID: string;
  dueDate: string;
  amount?: number;
  currency: string;
  product: string;
  description?: string;
  cart?: InvoiceLine[];
  metadata: Record<string, unknown>;
  externalID?: string;
}

export type InvoiceStatus = 'unpaid' | 'cancelled' | 'paid' | 'fulfilled';

export interface Invoice {
  id: string;
  shopID: string;
  createdAt: string;
  dueDate: string;
  amount: number;
  currency: string;
  product: string;
  description?: string;
  cart?: InvoiceLine[];
  metadata: Record<string, unknown>;
  externalID?: string;
  status: InvoiceStatus;
  reason?: string;
}

export interface InvoiceAndToken {
  invoice: Invoice;
  invoiceAccessToken: AccessToken;
}

interface CustomerPayer {
  payerType: 'CustomerPayer';
  customerID: string;
  /** Read-only: the provider adds the bound card's public details to payments it returns. */
  paymentToolDetails?: BankCardDetails;
}

export interface PaymentParams {
  flow: { type: 'PaymentFlowInstant' };
  payer: CustomerPayer;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export type PaymentStatus = 'pending' | 'processed' | 'captured' | 'cancelled' | 'refunded' | 'failed';

/** Nested failure code as the merchant sees it: authorization_failed → insufficient_funds. */
export interface PaymentError {
  code: string;
  subError?: PaymentError;
}

export interface Payment {
  id: string;
  invoiceID: string;
  createdAt: string;
  amount: number;
  currency: string;
  flow: { type: 'PaymentFlowInstant' };
  payer: CustomerPayer;
  externalID?: string;
  metadata?: Record<string, unknown>;
  status: PaymentStatus;
  error?: PaymentError;
}

export type InvoiceChange =
  | { changeType: 'InvoiceCreated'; invoice: Invoice }
  | { changeType: 'InvoiceStatusChanged'; status: InvoiceStatus }
  | { changeType: 'PaymentStarted'; payment: Payment }
  | { changeType: 'PaymentStatusChanged'; paymentID: string; status: PaymentStatus; error?: PaymentError }
  | { changeType: 'RefundStarted'; paymentID: string; refund: Refund }
  | { changeType: 'RefundStatusChanged'; paymentID: string; refundID: string; status: RefundStatus; error?: RefundError };

export interface InvoiceEvent {
  id: number;
  createdAt: string;
  changes: InvoiceChange[];
}

// ---- Refunds of a captured payment ----

/**
 * A refund of a captured payment. `cart` is the cart that stays paid after it: its total is the payment's remainder
 * less this refund. Without `amount` the provider refunds whatever remains; a refund moves one payment's money only.
 */
export interface RefundParams {
  externalID?: string;
  amount?: number;
  currency?: string;
  reason?: string;
  cart?: InvoiceLine[];
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** A failed refund's error: the top failure code and the provider's reason (no nested sub-codes). */
export interface RefundError {
  code: string;
  message: string;
}

export interface Refund {
  /** The payment's own sequence as a string, from "100" for refunds made through the API. */
  id: string;
  createdAt: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  error?: RefundError;
  externalID?: string;
  reason?: string;
  cart?: InvoiceLine[];
}

// ---- Wallet API (payouts) ----

export interface IdentityParams {
  name: string;
  provider: string;
  class: string;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export interface Identity {
  id: string;
  name: string;
  provider: string;
  class: string;
  level: string;
  isBlocked: boolean;
  createdAt: string;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export interface WalletParams {
  name: string;
  identity: string;
  currency: string;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export interface Wallet {
  id: string;
  name: string;
  identity: string;
  currency: string;
  isBlocked: boolean;
  createdAt: string;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export interface BankCardParams {
  type: 'BankCard';
  cardNumber: string;
  expDate: string;
  cardHolder?: string;
  cvv?: string;
}

export interface BankCardToken {
  token: string;
  authData?: string;
  bin: string;
  lastDigits: string;
  paymentSystem: string;
  validUntil?: string;
}

export interface DestinationParams {
  name: string;
  identity: string;
  currency: string;
  resource: { type: 'BankCardDestinationResource'; token: string };
  metadata?: Record<string, unknown>;
  externalID?: string;
}

type DestinationStatus = 'Unauthorized' | 'Authorized';

export interface Destination {
  id: string;
  name: string;
  identity: string;
  currency: string;
  resource: { type: 'BankCardDestinationResource'; token: string; bin?: string; lastDigits?: string; paymentSystem?: string };
  metadata?: Record<string, unknown>;
  externalID?: string;
  status: DestinationStatus;
  isBlocked: boolean;
  createdAt: string;
  validUntil?: string;
}

interface Asset {
  amount: number;
  currency: string;
}

export interface WithdrawalParams {
  wallet: string;
  destination: string;
  body: Asset;
  externalID?: string;
  metadata?: Record<string, unknown>;
}

export type WithdrawalStatus = 'Pending' | 'Succeeded' | 'Failed';

export interface WithdrawalFailure {
  code: string;
  subError?: WithdrawalFailure;
}

export interface Withdrawal {
  id: string;
  wallet: string;
  destination: string;
  body: Asset;
  createdAt: string;
  externalID?: string;
  metadata?: Record<string, unknown>;
  status: WithdrawalStatus;
  failure?: WithdrawalFailure;
}

export interface WithdrawalEvent {
  eventID: number;
  occuredAt: string;
  changes: { type: 'WithdrawalStatusChanged'; status: WithdrawalStatus; failure?: WithdrawalFailure }[];
}

// ---- Event paging (query parameters) ----

/** CAPI event paging: at most `limit` events strictly after `eventID`. */
export interface EventsQuery {
  limit: number;
  eventID?: number;
}

/** Wallet API withdrawal event paging: the cursor parameter is named `eventCursor`. */
export interface WithdrawalEventsQuery {
  limit: number;
  eventCursor?: number;
}

// ---- Webhooks (registration and delivered events) ----

export * from './provider-webhook.types';
