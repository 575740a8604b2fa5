import type {
  Customer,
  CustomerBinding,
  CustomerEvent,
  Destination,
  Identity,
  Invoice,
  InvoiceEvent,
  Payment,
  Refund,
  Wallet,
  Withdrawal,
  WithdrawalEvent,
} from '../../gateway/provider-api.types';
import type { CardGroup } from '../cards/card-outcomes';
import type { WebhookStateSnapshot } from './webhook-state';

/**
 * What the sandbox keeps of a tokenized card. The card number and CVV are dropped as soon as the card is
 * classified, so neither memory nor the state file ever holds them.
 */
export interface CardProfile {
  bin: string;
  lastDigits: string;
  cardNumberMask: string;
  paymentSystem: string;
  group: CardGroup;
  /** Keyed hash of the card number: lets idempotency compare cards without keeping them. */
  fingerprint: string;
}

/** A CAPI payment tool token (operation 7) and the session issued with it. */
export interface PaymentToolRecord {
  token: string;
  session: string;
  card: CardProfile;
  clientInfo: { fingerprint: string; ip?: string };
  expiresAt: number;
}

/** A Payment Resource API card token (/payres/v0/bank-cards). */
export interface CardTokenRecord {
  token: string;
  card: CardProfile;
  expiresAt: number;
}

export interface AccessTokenRecord {
  kind: 'invoice' | 'customer';
  subjectID: string;
  expiresAt: number;
}

export interface CustomerRecord {
  customer: Customer;
  events: CustomerEvent[];
  bindingIDs: string[];
  /** The most recently succeeded binding: the card that customer-payer charges use. */
  activeBindingID?: string;
}

/** A 3-D Secure check waiting for the payer at the ACS page. */
interface PendingInteraction {
  /** Sent as PaReq and asked back by the ACS page: only the holder of the redirect can confirm. */
  secret: string;
  /** When the wait ends and the binding fails (epoch ms). */
  expiresAt: number;
  /** The payer confirmed, but the issuer never answers (3-D Secure timeout cards). */
  confirmed: boolean;
}

export interface BindingRecord {
  binding: CustomerBinding;
  customerID: string;
  card: CardProfile;
  interaction?: PendingInteraction;
}

export interface PaymentRecord {
  payment: Payment;
  customerID: string;
  bindingID: string;
  /** Decided when the payment starts: "success" or a failure code path. */
  plannedOutcome: string;
  capturedAt?: string;
  /** The payment's refunds, in the order they were made (absent until the first). */
  refunds?: RefundRecord[];
  /** The last refund id handed out for this payment (ids are taken even by refunds the provider then refuses). */
  refundSequence?: number;
}

export interface RefundRecord {
  refund: Refund;
  /** Decided when the refund is made, from the card the payment was made with: absent for success. */
  plannedFailure?: { code: string; message: string };
  /** Real time it reached succeeded or failed. */
  finishedAt?: string;
}

export interface InvoiceRecord {
  invoice: Invoice;
  events: InvoiceEvent[];
  /** Payment "n" sits at index n-1. */
  payments: PaymentRecord[];
}

export interface DestinationRecord {
  destination: Destination;
  card: CardProfile;
}

export interface WithdrawalRecord {
  withdrawal: Withdrawal;
  events: WithdrawalEvent[];
  /** Decided at creation from the destination's card: a failure code path, or undefined for success. */
  plannedFailure?: string;
}

export interface BindingChargeRecord {
  customerID: string;
  bindingID: string;
  amount: number;
  currency: string;
  refunded: boolean;
  createdAt: string;
}

export interface IdempotencyRecord {
  features: string;
  id: string;
}

export interface PaymentRef {
  invoiceID: string;
  paymentID: string;
}

export type SequenceName = 'identity' | 'wallet' | 'destination' | 'withdrawal';

/** The state file's content: every map as an array of entries, so JSON can carry it. */
export interface SandboxSnapshot {
  version: 1;
  savedAt: string;
  fingerprintKey: string;
  sequences: Record<SequenceName, number>;
  customers: [string, CustomerRecord][];
  bindings: [string, BindingRecord][];
  invoices: [string, InvoiceRecord][];
  paymentOrder: PaymentRef[];
  accessTokens: [string, AccessTokenRecord][];
  paymentTools: [string, PaymentToolRecord][];
  cardTokens: [string, CardTokenRecord][];
  idempotency: [string, IdempotencyRecord][];
  identities: [string, Identity][];
  wallets: [string, Wallet][];
  destinations: [string, DestinationRecord][];
  withdrawals: [string, WithdrawalRecord][];
  bindingCharges: BindingChargeRecord[];
  scriptedOutcomes: [string, string[]][];
  /** Absent in files written before webhooks existed. */
  webhooks?: WebhookStateSnapshot;
}
