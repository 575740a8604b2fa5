import { currentLanguage, type Language } from '../i18n/i18n';

/** How many decimals a currency's amounts have (2 for RUB, 0 for JPY), as the browser knows it. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount typed by a person ("10", "10.5", "1 500,50") as minor units, read as text (never through a float), or
 * null when it is not one: more decimals than the currency has, letters, nothing.
 */
export function parseMinor(text: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  const match = /^(\d{1,16})(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${match[1]}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Minor units as the text a person would type back ("10.50", or "10,50" in Russian), without the currency. */
export function minorAsInput(minor: number, currency: string, language: Language = currentLanguage()): string {
  const digits = currencyDigits(currency);
  const text = String(minor).padStart(digits + 1, '0');
  const whole = digits === 0 ? text : `${text.slice(0, -digits)}${language === 'ru' ? ',' : '.'}${text.slice(-digits)}`;
  return whole;
}
