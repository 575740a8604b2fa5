import { currentLanguage, type Language } from '../i18n/i18n';

const formats = new Map<string, Intl.DateTimeFormat>();

/** English keeps the sortable "2027-01-31 03:00"; Russian writes "31.01.2027 03:00". Both on a 24-hour clock. */
const TIME_LOCALES: Record<Language, string> = { en: 'en-CA', ru: 'ru-RU' };

function formatIn(zone: string, language: Language): Intl.DateTimeFormat {
  const key = `${language}:${zone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(TIME_LOCALES[language], {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(key, format);
  }
  return format;
}

/** "2027-01-31 03:00" (or "31.01.2027 03:00") in the given IANA zone. */
export function formatTimeIn(iso: string, zone: string, language: Language = currentLanguage()): string {
  return formatIn(zone, language).format(new Date(iso)).replace(',', '');
}

/** "2027-01-31 00:00 UTC". */
export function formatUtc(iso: string, language: Language = currentLanguage()): string {
  return `${formatTimeIn(iso, 'UTC', language)} UTC`;
}

/** A time in the subscription's zone and in UTC ("2027-01-31 03:00 Europe/Moscow · 2027-01-31 00:00 UTC"); UTC alone without a zone. */
export function formatTime(iso: string, zone?: string | null, language: Language = currentLanguage()): string {
  if (!zone || zone === 'UTC') return formatUtc(iso, language);
  return `${formatTimeIn(iso, zone, language)} ${zone} · ${formatUtc(iso, language)}`;
}

/** A day (UTC) alone: "2027-01-31" or "31.01.2027". */
export function formatDay(iso: string, language: Language = currentLanguage()): string {
  return formatUtc(iso, language).split(' ')[0];
}

/** The operator's own IANA zone (the browser's), in which dates typed into a form are meant. */
export function operatorZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Today in the operator's zone, as a date input writes it ("2027-01-31"): the earliest day a form offers. */
export function todayInOperatorZone(): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/**
 * The last minute of a day ("2027-01-31") in the operator's zone, as an instant the API takes: a coupon redeemable
 * "by 31 January", or a key that works "until 31 January", lasts through that day where the operator is. Null when
 * the text is not a whole date.
 */
export function endOfDayInOperatorZone(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  // The Date constructor with parts reads them in the browser's zone, which is the operator's.
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 0, 0);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}
