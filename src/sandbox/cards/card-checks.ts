/**
 * Card number and expiry checks the provider's tokenizer applies before it accepts card data.
 *
 * Kept apart from the daemon's own card checks (src/payouts, a library) on purpose: a simulator that shared its
 * client's validation would agree with every mistake the client makes, and a test against it would prove nothing.
 */

export function luhnValid(pan: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card network by BIN, in the provider's lower-case naming; undefined when the sandbox knows no such network. */
export function paymentSystemOf(pan: string): string | undefined {
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if (pan.startsWith('4')) return 'visa';
  if (four >= 2200 && four <= 2204) return 'mir';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 50 || (two >= 56 && two <= 69)) return 'maestro';
  if (pan.startsWith('9860')) return 'humo';
  return undefined;
}

export interface ExpiryDate {
  month: number;
  year: number;
}

/** "MM/YY" or "MM/YYYY"; undefined when the month is not 1..12. */
export function parseExpDate(value: string): ExpiryDate | undefined {
  const match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return { month, year };
}

/** A card is valid through the last day of its expiry month (UTC). */
export function isExpired(expiry: ExpiryDate, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return expiry.year < currentYear || (expiry.year === currentYear && expiry.month < currentMonth);
}

/** First six, stars, last four: the only shape of a card number that ever leaves the sandbox. */
export function maskCardNumber(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(Math.max(pan.length - 10, 0))}${pan.slice(-4)}`;
}
