import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import type { BillingInterval } from '../../src/common/calendar/billing-calendar';

/**
 * An oracle for the billing calendar's property tests (src/common/calendar/billing-calendar.*.spec.ts): wall-clock
 * readings and zone transitions computed from luxon's zone offsets, independently of the code under test, and the
 * fast-check generators of zones, anchors and periods.
 */

// Real zones: DST in both hemispheres, DST changes at local midnight (Santiago, Havana, Beirut, Cairo,
// Azores, Asuncion), 30-minute DST (Lord_Howe), 2-hour DST (Troll), and :30 / :45 offsets.
export const ZONES = [
  'UTC',
  'Etc/UTC',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Moscow',
  'Europe/Lisbon',
  'Atlantic/Azores',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/Santiago',
  'America/Havana',
  'America/Asuncion',
  'America/Nuuk',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Tehran',
  'Asia/Beirut',
  'Asia/Jerusalem',
  'Asia/Tokyo',
  'Africa/Cairo',
  'Australia/Sydney',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Australia/Eucla',
  'Pacific/Chatham',
  'Pacific/Auckland',
  'Pacific/Kiritimati',
  'Antarctica/Troll',
];
export const INTERVALS: BillingInterval[] = ['day', 'week', 'month', 'year'];
const MAX_COUNT: Record<BillingInterval, number> = { day: 1096, week: 156, month: 36, year: 3 };
export const MINUTE = 60_000;
export const RUNS = 1500;

/** Wall-clock fields of an instant in a zone, computed by luxon (an oracle independent of the code under test). */
export function wall(instant: Date | number, zone: string) {
  const dt = DateTime.fromMillis(typeof instant === 'number' ? instant : instant.getTime(), { zone });
  return { year: dt.year, month: dt.month, day: dt.day, time: dt.toFormat('HH:mm:ss.SSS'), weekday: dt.weekday, dt };
}

export const dateKey = (w: { year: number; month: number; day: number }) => `${w.year}-${w.month}-${w.day}`;

const transitionCache = new Map<string, { at: number; before: number; after: number }[]>();

/** Offset changes of a zone within a year (found by weekly steps, then bisection to the millisecond). */
export function transitions(zone: string, year: number): { at: number; before: number; after: number }[] {
  const key = `${zone}|${year}`;
  const cached = transitionCache.get(key);
  if (cached) return cached;
  const z = IANAZone.create(zone);
  const found: { at: number; before: number; after: number }[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  const step = 7 * 86_400_000;
  for (let t = Date.UTC(year, 0, 1); t < end; t += step) {
    const before = z.offset(t);
    const after = z.offset(t + step);
    if (before === after) continue;
    let lo = t;
    let hi = t + step;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (z.offset(mid) === before) lo = mid;
      else hi = mid;
    }
    found.push({ at: hi, before, after });
  }
  transitionCache.set(key, found);
  return found;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  /** HH:mm:ss.SSS */
  time: string;
}

/**
 * The oracle for turning a wall-clock reading into an instant, built only from the zone's offset at
 * given instants (never from luxon's local-to-instant guess, which can pick a wrong offset in zones
 * whose offset history has three values nearby, e.g. Europe/Lisbon in 1992-1996). It tries every offset
 * the zone uses in the surrounding years: several hits → the reading occurs more than once (take the
 * earliest); no hit → the reading is inside the gap of a forward transition (take that transition).
 */
function resolveWall(w: WallTime, zone: string): { exists: boolean; instant: number } {
  const [hour, minute, rest] = w.time.split(':');
  const [second, millisecond] = rest.split('.');
  const wallMs = Date.UTC(w.year, w.month - 1, w.day, Number(hour), Number(minute), Number(second), Number(millisecond));
  const z = IANAZone.create(zone);
  const nearby = [w.year - 1, w.year, w.year + 1].flatMap((y) => transitions(zone, y));
  const offsets = new Set([z.offset(wallMs), ...nearby.flatMap((t) => [t.before, t.after])]);
  const hits = [...offsets].map((o) => wallMs - o * MINUTE).filter((t) => t + z.offset(t) * MINUTE === wallMs);
  if (hits.length > 0) return { exists: true, instant: Math.min(...hits) };
  const gap = nearby.find((t) => t.after > t.before && t.at + t.before * MINUTE <= wallMs && wallMs < t.at + t.after * MINUTE);
  if (!gap) throw new Error(`oracle: ${JSON.stringify(w)} in ${zone} neither exists nor falls in a known gap`);
  return { exists: false, instant: gap.at };
}

export function wallTimeExists(year: number, month: number, day: number, time: string, zone: string): boolean {
  return resolveWall({ year, month, day, time }, zone).exists;
}

/** The instant of a local reading (built by the oracle, so test anchors have exactly the wall time asked for). */
export function localInstant(zone: string, fields: { year: number; month: number; day: number; hour?: number; minute?: number }): Date {
  const time = `${String(fields.hour ?? 0).padStart(2, '0')}:${String(fields.minute ?? 0).padStart(2, '0')}:00.000`;
  return new Date(resolveWall({ year: fields.year, month: fields.month, day: fields.day, time }, zone).instant);
}

/**
 * The result keeps the expected date and time of day; when that time occurs twice it is the earlier
 * occurrence, and when it does not exist it is the first instant after the gap.
 */
export function expectWallTime(result: Date, expected: WallTime, zone: string): void {
  const oracle = resolveWall(expected, zone);
  if (oracle.exists) {
    const got = wall(result, zone);
    expect({ date: dateKey(got), time: got.time }).toEqual({ date: dateKey(expected), time: expected.time });
  }
  expect(result.toISOString()).toBe(new Date(oracle.instant).toISOString());
}

export const zoneArb = fc.constantFrom(...ZONES);

/** Anchors as instants anywhere in 1990..2100, or as local readings biased to month ends and DST hours. */
export const anchorArb = (zone: string) =>
  fc.oneof(
    fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }),
    fc
      .record({
        year: fc.integer({ min: 1990, max: 2100 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(28, 29, 30, 31)),
        hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 1, 2, 3, 23)),
        minute: fc.constantFrom(0, 15, 30, 45, 59),
      })
      .map(({ year, month, day, ...time }) => {
        const dim = DateTime.fromObject({ year, month }, { zone: 'UTC' }).daysInMonth ?? 28;
        return localInstant(zone, { year, month, day: Math.min(day, dim), ...time });
      }),
  );

export const caseArb = (intervals: BillingInterval[] = INTERVALS) =>
  fc
    .tuple(zoneArb, fc.constantFrom(...intervals))
    .chain(([zone, interval]) =>
      fc.record({
        zone: fc.constant(zone),
        interval: fc.constant(interval),
        anchor: anchorArb(zone),
        count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: MAX_COUNT[interval] }), fc.integer({ min: 1, max: 3 })),
        index: fc.oneof(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 400 })),
      }),
    )
    // Periods up to 40 years after the anchor (anchors are 1990..2100): enough to cross many DST rule changes.
    .filter(({ interval, count, index }) => {
      const years = { day: 1 / 365, week: 7 / 365, month: 1 / 12, year: 1 }[interval];
      return years * count * (index + 1) <= 40;
    });

export function addMonths(year: number, month: number, months: number) {
  const total = year * 12 + month - 1 + months;
  return { year: Math.floor(total / 12), month: (total % 12) + 1 };
}

export function daysIn(year: number, month: number): number {
  return DateTime.fromObject({ year, month }, { zone: 'UTC' }).daysInMonth as number;
}

/** The anchor's local date plus calendar units, clamped to the month end (the oracle). */
export function expectedLocal(anchor: Date, zone: string, interval: BillingInterval, units: number) {
  const a = wall(anchor, zone);
  if (interval === 'day' || interval === 'week') {
    const date = DateTime.fromObject({ year: a.year, month: a.month, day: a.day }, { zone: 'UTC' }).plus({
      days: interval === 'week' ? units * 7 : units,
    });
    return { year: date.year, month: date.month, day: date.day, time: a.time };
  }
  const { year, month } = addMonths(a.year, a.month, interval === 'year' ? units * 12 : units);
  return { year, month, day: Math.min(a.day, daysIn(year, month)), time: a.time };
}
