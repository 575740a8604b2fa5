import { currentLanguage, type Language } from '../i18n/i18n';

const formats = new Map<string, Intl.NumberFormat>();

/** English keeps the code before the amount ("RUB 1,500.00"); Russian writes it as Russian does ("1 500,00 ₽"). */
const MONEY_LOCALES: Record<Language, { locale: string; currencyDisplay: 'code' | 'symbol' }> = {
  en: { locale: 'en-US', currencyDisplay: 'code' },
  ru: { locale: 'ru-RU', currencyDisplay: 'symbol' },
};

function formatFor(currency: string, language: Language): Intl.NumberFormat {
  const key = `${language}:${currency}`;
  let format = formats.get(key);
  if (!format) {
    const { locale, currencyDisplay } = MONEY_LOCALES[language];
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay });
    } catch {
      // Not a currency the browser knows: two decimals and the code as given.
      format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * The one place an amount in minor units becomes text, in the console's language: 250000 RUB → "RUB 2,500.00" or
 * "2 500,00 ₽", 500 JPY → "JPY 500". The decimal point is placed on the digits as text, never by dividing a float, so
 * every amount the API can hold is exact.
 */
export function formatMoney(minor: number, currency: string, language: Language = currentLanguage()): string {
  const format = formatFor(currency, language);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const sign = minor < 0 ? '-' : '';
  const text = Math.abs(Math.trunc(minor)).toString().padStart(digits + 1, '0');
  const decimal = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  const formatted = format.format(`${sign}${decimal}` as Intl.StringNumericLiteral);
  return format.resolvedOptions().style === 'currency' ? formatted : `${formatted} ${currency}`;
}

const numbers = new Map<Language, Intl.NumberFormat>();

/** A rate as a percentage with one decimal in the console's language ("12.5" / "12,5"); a dash when there is none. */
export function formatRate(rate: number | null | undefined, language: Language = currentLanguage()): string | null {
  if (rate === null || rate === undefined) return null;
  let format = numbers.get(language);
  if (!format) {
    format = new Intl.NumberFormat(MONEY_LOCALES[language].locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    numbers.set(language, format);
  }
  return format.format(rate * 100);
}
