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
