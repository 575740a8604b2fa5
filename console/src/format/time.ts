const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, format);
  }
  return format;
}

/** "2027-01-31 03:00" in the given IANA zone. */
export function formatTimeIn(iso: string, zone: string): string {
  return formatIn(zone).format(new Date(iso)).replace(',', '');
}

/** "2027-01-31 00:00 UTC". */
export function formatUtc(iso: string): string {
  return `${formatTimeIn(iso, 'UTC')} UTC`;
}

/** A time in the subscription's zone and in UTC ("2027-01-31 03:00 Europe/Moscow · 2027-01-31 00:00 UTC"); UTC alone without a zone. */
export function formatTime(iso: string, zone?: string | null): string {
  if (!zone || zone === 'UTC') return formatUtc(iso);
  return `${formatTimeIn(iso, zone)} ${zone} · ${formatUtc(iso)}`;
}
