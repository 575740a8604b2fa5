import cardValidator from 'card-validator';

/**
 * Card data checks made before anything is sent to the provider, on card-validator (payment systems, lengths, the
 * Luhn check digit, months, CVV lengths). Card data never appears in a message. The sandbox keeps rules of its
 * own on purpose: a simulator must not share the client's validation.
 */

// HUMO (Uzbekistan, 9860…, 16 digits) is on the provider's test card list but not in card-validator's table of
// payment systems: registered with the library, so its length and check digit are still checked there.
if (!cardValidator.creditCardType.getTypeInfo('humo')) {
  cardValidator.creditCardType.addCard({ niceType: 'HUMO', type: 'humo', patterns: [9860], gaps: [4, 8, 12], lengths: [16], code: { name: 'CVV', size: 3 } });
}

/** Digits only (as the tokenizer takes them; the library would also take spaces and dashes) of a known payment system. */
export function isCardNumber(value: unknown): boolean {
  return typeof value === 'string' && /^\d+$/.test(value) && cardValidator.number(value).isValid;
}

/** `MM/YY` as the tokenizer takes it. */
const EXP_DATE_SHAPE = /^(\d{2})\/(\d{2})$/;

/** `MM/YY` with a month the library accepts (01..12). Whether it has passed is isExpired's question. */
export function isCardExpiry(value: unknown): boolean {
  const match = typeof value === 'string' ? EXP_DATE_SHAPE.exec(value) : null;
  return match !== null && cardValidator.expirationMonth(match[1]).isValid;
}

/**
 * 3 or 4 digits, whatever the payment system: the provider's tokenizer takes either and checks the code itself,
 * so a stricter per-system length here would only refuse cards the provider accepts.
 */
export function isCardCvv(value: unknown): boolean {
  return typeof value === 'string' && cardValidator.cvv(value, [3, 4]).isValid;
}

/**
 * A card is good through the last day of its expiry month (UTC); an expiry that is not isCardExpiry counts as expired.
 * Judged here against the injected clock: card-validator would judge it against the machine's own clock.
 */
export function isExpired(expDate: string, now: Date): boolean {
  if (!isCardExpiry(expDate)) return true;
  const [month, year] = expDate.split('/').map(Number);
  const currentYear = now.getUTCFullYear();
  return 2000 + year < currentYear || (2000 + year === currentYear && month < now.getUTCMonth() + 1);
}
