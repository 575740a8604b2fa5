import { BindingInteraction, presentInteraction } from './binding-interaction';
import type { CustomerBinding } from './customer-binding.entity';
import type { Customer } from './customer.entity';

interface CardResponse {
  bin: string | null;
  lastDigits: string | null;
  paymentSystem: string | null;
}

/** The customer's newest binding still in progress, and what it waits for from the payer (3-D Secure), if anything. */
interface PendingBindingResponse {
  id: string;
  status: 'pending';
  interaction: BindingInteraction | null;
}

export interface CustomerResponse {
  id: string;
  providerCustomerId: string;
  status: Customer['status'];
  card: CardResponse | null;
  pendingBinding: PendingBindingResponse | null;
  /** The newest declined charge was declined for an expired card, and no other card was bound since. */
  cardExpired: boolean;
  readyAt: string | null;
  email: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  shopId: string;
  /**
   * Only with the built-in sandbox: its hosted binding form for this customer. Without the access token (add
   * `&customerAccessToken=…`) except in the answers that issue one.
   */
  hostedFormUrl?: string;
  createdAt: string;
  updatedAt: string;
}

/** The creation answer: with the access-token answer, the only place a customer access token ever appears. */
export interface CreatedCustomerResponse extends CustomerResponse {
  /** Null when a repeat with the same Idempotency-Key replays this answer: tokens are never stored. */
  customerAccessToken: string | null;
  /** How to get a new token whenever this one is lost or expired (a replay answers the token as null). */
  customerAccessTokenRenewal: string;
}

/** POST /api/v1/customers/:id/access-token. */
export interface AccessTokenResponse {
  customerAccessToken: string;
  /** Only with the built-in sandbox: the hosted form, authorised by this token. */
  hostedFormUrl?: string;
}

export interface BindingResponse {
  id: string;
  customerId: string;
  providerBindingId: string | null;
  /** `api`: started through POST .../bindings; `hosted_form`: found in the provider's events. */
  source: 'api' | 'hosted_form';
  status: 'pending' | 'succeeded' | 'failed';
  errorCode: string | null;
  card: CardResponse | null;
  /** While pending: where to send the payer when the provider asks for 3-D Secure; null otherwise. */
  interaction: BindingInteraction | null;
  createdAt: string;
  updatedAt: string;
}

export function toCustomerResponse(customer: Customer, extras: { hostedFormUrl?: string; pendingBinding?: CustomerBinding | null; cardExpired?: boolean } = {}): CustomerResponse {
  const hasCard = customer.activeBindingId !== null && (customer.cardBin !== null || customer.cardLastDigits !== null);
  return {
    id: customer.id,
    providerCustomerId: customer.providerCustomerId,
    status: customer.status,
    card: hasCard ? { bin: customer.cardBin, lastDigits: customer.cardLastDigits, paymentSystem: customer.cardPaymentSystem } : null,
    pendingBinding: extras.pendingBinding ? { id: extras.pendingBinding.id, status: 'pending', interaction: presentInteraction(extras.pendingBinding.interaction) } : null,
    // An event's copy is not given it (false): customer.ready comes with a new card, which is not the one declined.
    cardExpired: extras.cardExpired ?? false,
    readyAt: customer.readyAt ? customer.readyAt.toISOString() : null,
    email: customer.email,
    phone: customer.phone,
    metadata: customer.metadata,
    shopId: customer.shopId,
    ...(extras.hostedFormUrl !== undefined && { hostedFormUrl: extras.hostedFormUrl }),
    createdAt: customer.createdAt.toISOString(),
    updatedAt: customer.updatedAt.toISOString(),
  };
}

export function toBindingResponse(binding: CustomerBinding): BindingResponse {
  const hasCard = binding.cardBin !== null || binding.cardLastDigits !== null;
  return {
    id: binding.id,
    customerId: binding.customerId,
    providerBindingId: binding.providerBindingId,
    source: binding.externalId === null ? 'hosted_form' : 'api',
    // `unknown` is our own bookkeeping (the create call's answer was lost); to the caller it is still in progress.
    status: binding.status === 'unknown' ? 'pending' : binding.status,
    errorCode: binding.errorCode,
    card: hasCard ? { bin: binding.cardBin, lastDigits: binding.cardLastDigits, paymentSystem: binding.cardPaymentSystem } : null,
    // The row never keeps one on a final binding; the guard keeps the answer right whatever a row holds.
    interaction: binding.status === 'succeeded' || binding.status === 'failed' ? null : presentInteraction(binding.interaction),
    createdAt: binding.createdAt.toISOString(),
    updatedAt: binding.updatedAt.toISOString(),
  };
}
