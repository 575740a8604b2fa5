/** What the provider's failure code says about retrying the same card. */
export type DeclineKind = 'hard' | 'soft';

/**
 * Codes after which the same card will not succeed (expired, invalid, lost, stolen, unknown issuer, the provider's
 * security refusal; Visa category 1, Mastercard MAC 03/21): retrying costs network fees and never recovers, so
 * collection waits for a new card. The one list both strategies use.
 */
export const HARD_DECLINE_CODES = [
  'account_not_found',
  'account_stolen',
  'account_blocked',
  'card_expired',
  'card_number_invalid',
  'card_holder_invalid',
  'cvv_invalid',
  'issuer_not_found',
  'customer_not_ready',
  'security_policy_violated',
];

/** Classifies a failure code path such as `authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired`. */
export function classifyDecline(codePath: string): DeclineKind {
  const parts = codePath.split(':');
  return parts.some((p) => HARD_DECLINE_CODES.includes(p)) ? 'hard' : 'soft';
}

/**
 * Whether a failure code path says the card has expired (`…:card_expired`). The daemon never sees a card's expiry
 * date (cards are bound at the provider), so such a decline is the only sign of it.
 */
export function isExpiredCardDecline(codePath: string): boolean {
  return codePath.split(':').includes('card_expired');
}
