/** Card data checks made before anything is sent to the provider. Card data never appears in a message. */

/** The Luhn checksum every real card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export function isCardNumber(value: unknown): boolean {
  return typeof value === 'string' && /^\d{12,19}$/.test(value) && passesLuhn(value);
}

export const EXP_DATE_PATTERN = /^(0[1-9]|1[0-2])\/(\d{2})$/;

/** A card is good through the last day of its expiry month (UTC); `MM/YY` with a valid month is assumed. */
export function isExpired(expDate: string, now: Date): boolean {
  const match = EXP_DATE_PATTERN.exec(expDate);
  if (!match) return true;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  const currentYear = now.getUTCFullYear();
  return year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1);
}
