const formats = new Map<string, Intl.NumberFormat>();

function formatFor(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code' });
    } catch {
      // Not a currency the browser knows: two decimals and the code as given.
      format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formats.set(currency, format);
  }
  return format;
}

/**
 * The one place an amount in minor units becomes text: 250000 RUB → "RUB 2,500.00", 500 JPY → "JPY 500". The decimal
 * point is placed on the digits as text, never by dividing a float, so every amount the API can hold is exact.
 */
export function formatMoney(minor: number, currency: string): string {
  const format = formatFor(currency);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const sign = minor < 0 ? '-' : '';
  const text = Math.abs(Math.trunc(minor)).toString().padStart(digits + 1, '0');
  const decimal = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  const formatted = format.format(`${sign}${decimal}` as Intl.StringNumericLiteral);
  return format.resolvedOptions().style === 'currency' ? formatted : `${formatted} ${currency}`;
}
