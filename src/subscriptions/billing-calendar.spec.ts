import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import {
  addTrialDays,
  BillingInterval,
  firstPeriodIndexAtOrAfter,
  isValidTimeZone,
  maxPeriodWithinThreeYears,
  periodEnd,
  periodsBegunBy,
  periodStart,
} from './billing-calendar';

// Real zones: DST in both hemispheres, DST changes at local midnight (Santiago, Havana, Beirut, Cairo,
// Azores, Asuncion), 30-minute DST (Lord_Howe), 2-hour DST (Troll), and :30 / :45 offsets.
const ZONES = [
  'UTC',
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
const INTERVALS: BillingInterval[] = ['day', 'week', 'month', 'year'];
const MAX_COUNT: Record<BillingInterval, number> = { day: 1096, week: 156, month: 36, year: 3 };
const MINUTE = 60_000;
const RUNS = 1500;

/** Wall-clock fields of an instant in a zone, computed by luxon (an oracle independent of the code under test). */
function wall(instant: Date | number, zone: string) {
  const dt = DateTime.fromMillis(typeof instant === 'number' ? instant : instant.getTime(), { zone });
  return { year: dt.year, month: dt.month, day: dt.day, time: dt.toFormat('HH:mm:ss.SSS'), weekday: dt.weekday, dt };
}

const dateKey = (w: { year: number; month: number; day: number }) => `${w.year}-${w.month}-${w.day}`;

const transitionCache = new Map<string, { at: number; before: number; after: number }[]>();

/** Offset changes of a zone within a year (found by weekly steps, then bisection to the millisecond). */
function transitions(zone: string, year: number): { at: number; before: number; after: number }[] {
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

function wallTimeExists(year: number, month: number, day: number, time: string, zone: string): boolean {
  return resolveWall({ year, month, day, time }, zone).exists;
}

/** The instant of a local reading (built by the oracle, so test anchors have exactly the wall time asked for). */
function localInstant(zone: string, fields: { year: number; month: number; day: number; hour?: number; minute?: number }): Date {
  const time = `${String(fields.hour ?? 0).padStart(2, '0')}:${String(fields.minute ?? 0).padStart(2, '0')}:00.000`;
  return new Date(resolveWall({ year: fields.year, month: fields.month, day: fields.day, time }, zone).instant);
}

/**
 * The result keeps the expected date and time of day; when that time occurs twice it is the earlier
 * occurrence, and when it does not exist it is the first instant after the gap.
 */
function expectWallTime(result: Date, expected: WallTime, zone: string): void {
  const oracle = resolveWall(expected, zone);
  if (oracle.exists) {
    const got = wall(result, zone);
    expect({ date: dateKey(got), time: got.time }).toEqual({ date: dateKey(expected), time: expected.time });
  }
  expect(result.toISOString()).toBe(new Date(oracle.instant).toISOString());
}

const zoneArb = fc.constantFrom(...ZONES);

/** Anchors as instants anywhere in 1990..2100, or as local readings biased to month ends and DST hours. */
const anchorArb = (zone: string) =>
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

const caseArb = (intervals: BillingInterval[] = INTERVALS) =>
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

function addMonths(year: number, month: number, months: number) {
  const total = year * 12 + month - 1 + months;
  return { year: Math.floor(total / 12), month: (total % 12) + 1 };
}

function daysIn(year: number, month: number): number {
  return DateTime.fromObject({ year, month }, { zone: 'UTC' }).daysInMonth as number;
}

/** The anchor's local date plus calendar units, clamped to the month end (the oracle). */
function expectedLocal(anchor: Date, zone: string, interval: BillingInterval, units: number) {
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

describe('billing calendar: properties', () => {
  it('period 0 is the anchor itself and periodEnd(k) is periodStart(k + 1)', () => {
    fc.assert(
      fc.property(caseArb(), ({ zone, interval, anchor, count, index }) => {
        expect(periodStart(anchor, zone, interval, count, 0).getTime()).toBe(anchor.getTime());
        expect(periodEnd(anchor, zone, interval, count, index).getTime()).toBe(periodStart(anchor, zone, interval, count, index + 1).getTime());
      }),
      { numRuns: RUNS },
    );
  });

  it('periods strictly increase', () => {
    fc.assert(
      fc.property(caseArb(), ({ zone, interval, anchor, count, index }) => {
        // Kiritimati skipped all of 1994-12-31: a daily 00:00 period due that day starts at 1995-01-01 00:00,
        // like the next one. Such whole-day skips are all in the past, before any subscription we bill.
        fc.pre(zone !== 'Pacific/Kiritimati' || anchor.getUTCFullYear() > 1995);
        let previous = periodStart(anchor, zone, interval, count, index).getTime();
        for (let k = index + 1; k <= index + 6; k++) {
          const next = periodStart(anchor, zone, interval, count, k).getTime();
          expect(next).toBeGreaterThan(previous);
          previous = next;
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('every period lands on the anchor date plus k intervals (month ends clamped), at the anchor time of day', () => {
    fc.assert(
      fc.property(caseArb(), ({ zone, interval, anchor, count, index }) => {
        fc.pre(index > 0);
        const result = periodStart(anchor, zone, interval, count, index);
        expectWallTime(result, expectedLocal(anchor, zone, interval, index * count), zone);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('monthly periods land on min(anchor day, days in month) of the right month', () => {
    fc.assert(
      fc.property(caseArb(['month']), ({ zone, anchor, count, index }) => {
        const a = wall(anchor, zone);
        const { year, month } = addMonths(a.year, a.month, index * count);
        const got = wall(periodStart(anchor, zone, 'month', count, index), zone);
        // A gap at local midnight can push the instant to the next day, but only when 00:xx does not exist.
        if (wallTimeExists(year, month, Math.min(a.day, daysIn(year, month)), a.time, zone)) {
          expect({ year: got.year, month: got.month, day: got.day }).toEqual({ year, month, day: Math.min(a.day, daysIn(year, month)) });
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('is derived from the anchor: count c at index k equals count 1 at index k × c, and month ends never drift', () => {
    fc.assert(
      fc.property(caseArb(), ({ zone, interval, anchor, count, index }) => {
        fc.pre(index * count <= 2000);
        expect(periodStart(anchor, zone, interval, count, index).getTime()).toBe(periodStart(anchor, zone, interval, 1, index * count).getTime());
      }),
      { numRuns: RUNS },
    );
  });

  it('no drift after 120 months: every 12th monthly period has the anchor month and day again', () => {
    fc.assert(
      fc.property(zoneArb, fc.integer({ min: 1990, max: 2090 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 10 }), (zone, year, month, years) => {
        const anchor = localInstant(zone, { year, month, day: daysIn(year, month), hour: 10 });
        const a = wall(anchor, zone);
        // (Kiritimati skipped 1994-12-31 entirely: such an anchor is not on the month end.)
        fc.pre(a.day === daysIn(year, month) && a.time === '10:00:00.000');
        const result = periodStart(anchor, zone, 'month', 1, 12 * years);
        const day = Math.min(daysIn(year, month), daysIn(year + years, month));
        expectWallTime(result, { year: year + years, month, day, time: '10:00:00.000' }, zone);
        // Not one month later or earlier, whatever happened in between.
        expect(wall(periodStart(anchor, zone, 'month', 1, 12 * years + 1), zone).month).toBe((month % 12) + 1);
      }),
      { numRuns: RUNS },
    );
  });

  it('a Feb 29 yearly anchor bills Feb 28 in common years and Feb 29 in leap years', () => {
    const leapYears = Array.from({ length: 2100 - 1990 }, (_, i) => 1990 + i).filter((y) => daysIn(y, 2) === 29);
    fc.assert(
      fc.property(zoneArb, fc.constantFrom(...leapYears), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 23 }), (zone, year, index, hour) => {
        const anchor = localInstant(zone, { year, month: 2, day: 29, hour, minute: 7 });
        const a = wall(anchor, zone);
        fc.pre(a.month === 2 && a.day === 29);
        const result = periodStart(anchor, zone, 'year', 1, index);
        const target = year + index;
        expectWallTime(result, { year: target, month: 2, day: daysIn(target, 2) === 29 ? 29 : 28, time: a.time }, zone);
      }),
      { numRuns: RUNS },
    );
  });

  it('weekly periods fall on the anchor weekday, 7 × count × k calendar days later', () => {
    fc.assert(
      fc.property(caseArb(['week']), ({ zone, anchor, count, index }) => {
        const expected = expectedLocal(anchor, zone, 'week', index * count);
        const got = wall(periodStart(anchor, zone, 'week', count, index), zone);
        if (wallTimeExists(expected.year, expected.month, expected.day, expected.time, zone)) {
          expect(got.weekday).toBe(wall(anchor, zone).weekday);
          expect(dateKey(got)).toBe(dateKey(expected));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('a period landing in a DST gap or overlap takes the first instant after the gap / the earlier occurrence', () => {
    const cases = fc
      .record({
        zone: fc.constantFrom(...ZONES.filter((z) => transitions(z, 2027).length > 0 || transitions(z, 1995).length > 0)),
        year: fc.integer({ min: 1990, max: 2100 }),
        which: fc.nat(),
        // Where in the skipped or repeated hour (plus a minute either side) the wall time falls.
        position: fc.double({ min: -0.1, max: 1.1, noNaN: true }),
        interval: fc.constantFrom(...INTERVALS),
        k: fc.integer({ min: 1, max: 40 }),
      })
      .filter(({ zone, year }) => transitions(zone, year).length > 0);
    fc.assert(
      fc.property(cases, ({ zone, year, which, position, interval, k }) => {
        const list = transitions(zone, year);
        const { at, before, after } = list[which % list.length];
        const low = at + Math.min(before, after) * MINUTE;
        const high = at + Math.max(before, after) * MINUTE;
        // A wall-clock reading (as UTC fields) inside or at the edge of the affected range, whole minutes.
        const wallMs = Math.floor((low + (high - low) * position) / MINUTE) * MINUTE;
        const target = DateTime.fromMillis(wallMs, { zone: 'UTC' });
        const units = interval === 'week' ? { weeks: -k } : interval === 'day' ? { days: -k } : interval === 'month' ? { months: -k } : { years: -k };
        const anchorWall = target.plus(units);
        fc.pre(anchorWall.day === target.day && anchorWall.year >= 1900);
        const time = target.toFormat('HH:mm:ss.SSS');
        fc.pre(wallTimeExists(anchorWall.year, anchorWall.month, anchorWall.day, time, zone));
        const anchor = localInstant(zone, { year: anchorWall.year, month: anchorWall.month, day: anchorWall.day, hour: anchorWall.hour, minute: anchorWall.minute });
        expectWallTime(periodStart(anchor, zone, interval, 1, k), { year: target.year, month: target.month, day: target.day, time }, zone);
      }),
      { numRuns: RUNS },
    );
  });

  it('firstPeriodIndexAtOrAfter returns the smallest k with periodStart(k) >= instant', () => {
    fc.assert(
      fc.property(
        caseArb(),
        fc.oneof(fc.double({ min: -2, max: 200, noNaN: true }), fc.integer({ min: -1, max: 30 })),
        fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }),
        ({ zone, interval, anchor, count }, periods, jitterMs) => {
          // Instants near period boundaries (where off-by-one errors live) and anywhere in between.
          const base = periodStart(anchor, zone, interval, count, Math.max(0, Math.floor(periods)));
          const instant = new Date(base.getTime() + (Number.isInteger(periods) ? jitterMs : (periods % 1) * 86_400_000));
          const k = firstPeriodIndexAtOrAfter(anchor, zone, interval, count, instant);
          expect(periodStart(anchor, zone, interval, count, k).getTime()).toBeGreaterThanOrEqual(instant.getTime());
          if (k > 0) expect(periodStart(anchor, zone, interval, count, k - 1).getTime()).toBeLessThan(instant.getTime());
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('addTrialDays moves whole calendar days in the zone and keeps the time of day', () => {
    fc.assert(
      fc.property(
        zoneArb.chain((zone) => fc.tuple(fc.constant(zone), anchorArb(zone))),
        fc.integer({ min: 0, max: 730 }),
        ([zone, start], days) => {
          const result = addTrialDays(start, zone, days);
          if (days === 0) expect(result.getTime()).toBe(start.getTime());
          else expectWallTime(result, expectedLocal(start, zone, 'day', days), zone);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

const iso = (d: Date, zone: string) => DateTime.fromJSDate(d, { zone }).toISO();

describe('billing calendar: examples', () => {
  it.each([
    ['2027-01-31T00:00:00.000Z', ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30']],
    ['2028-01-31T00:00:00.000Z', ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30']],
    ['2027-01-30T00:00:00.000Z', ['2027-01-30', '2027-02-28', '2027-03-30']],
    ['2027-01-29T00:00:00.000Z', ['2027-01-29', '2027-02-28', '2027-03-29']],
  ])('monthly from %s: %j', (anchor, dates) => {
    const got = dates.map((_, k) => periodStart(new Date(anchor), 'UTC', 'month', 1, k).toISOString().slice(0, 10));
    expect(got).toEqual(dates);
  });

  it('month 12, 24 and 120 of a Jan 31 anchor are Jan 31 again', () => {
    const anchor = new Date('2027-01-31T09:00:00.000Z');
    for (const k of [12, 24, 120]) {
      expect(periodStart(anchor, 'UTC', 'month', 1, k).toISOString()).toBe(`${2027 + k / 12}-01-31T09:00:00.000Z`);
    }
    expect(periodStart(anchor, 'UTC', 'month', 1, 13).toISOString()).toBe('2028-02-29T09:00:00.000Z');
  });

  it('quarterly from Nov 30 clamps Feb and returns to the 30th', () => {
    const anchor = new Date('2026-11-30T00:00:00.000Z');
    expect([1, 2, 3].map((k) => periodStart(anchor, 'UTC', 'month', 3, k).toISOString().slice(0, 10))).toEqual([
      '2027-02-28',
      '2027-05-30',
      '2027-08-30',
    ]);
  });

  it('yearly from Feb 29 2028: Feb 28 2029..2031, Feb 29 2032', () => {
    const anchor = new Date('2028-02-29T12:00:00.000Z');
    expect([1, 2, 3, 4].map((k) => periodStart(anchor, 'UTC', 'year', 1, k).toISOString())).toEqual([
      '2029-02-28T12:00:00.000Z',
      '2030-02-28T12:00:00.000Z',
      '2031-02-28T12:00:00.000Z',
      '2032-02-29T12:00:00.000Z',
    ]);
  });

  it('keeps 00:30 local in Europe/Berlin across the 2027-03-28 and 2027-10-31 changes', () => {
    const anchor = new Date('2027-03-27T00:30:00+01:00');
    expect([0, 1, 2].map((k) => iso(periodStart(anchor, 'Europe/Berlin', 'day', 1, k), 'Europe/Berlin'))).toEqual([
      '2027-03-27T00:30:00.000+01:00',
      '2027-03-28T00:30:00.000+01:00',
      '2027-03-29T00:30:00.000+02:00',
    ]);
    // The day of the change is 23 hours long: days are calendar days, not 24 h.
    expect(periodEnd(anchor, 'Europe/Berlin', 'day', 1, 1).getTime() - periodStart(anchor, 'Europe/Berlin', 'day', 1, 1).getTime()).toBe(23 * 3_600_000);
    const autumn = new Date('2027-10-30T00:30:00+02:00');
    expect([1, 2].map((k) => iso(periodStart(autumn, 'Europe/Berlin', 'day', 1, k), 'Europe/Berlin'))).toEqual([
      '2027-10-31T00:30:00.000+02:00',
      '2027-11-01T00:30:00.000+01:00',
    ]);
    expect(periodEnd(autumn, 'Europe/Berlin', 'day', 1, 1).getTime() - periodStart(autumn, 'Europe/Berlin', 'day', 1, 1).getTime()).toBe(25 * 3_600_000);
  });

  it('a local time inside the spring-forward gap becomes the first instant after the gap (Berlin 02:30 → 03:00 CEST)', () => {
    const anchor = new Date('2027-02-28T02:30:00+01:00');
    expect(iso(periodStart(anchor, 'Europe/Berlin', 'month', 1, 1), 'Europe/Berlin')).toBe('2027-03-28T03:00:00.000+02:00');
    // The month after, 02:30 exists again and is used again.
    expect(iso(periodStart(anchor, 'Europe/Berlin', 'month', 1, 2), 'Europe/Berlin')).toBe('2027-04-28T02:30:00.000+02:00');
  });

  it('an ambiguous fall-back time takes the earlier offset (Berlin 02:30 on 2027-10-31 is 02:30 CEST)', () => {
    const anchor = new Date('2027-09-30T02:30:00+02:00');
    expect(periodStart(anchor, 'Europe/Berlin', 'day', 1, 31).toISOString()).toBe('2027-10-31T00:30:00.000Z');
    // An anchor at the second occurrence stays itself as period 0, and later periods keep 02:30.
    const second = new Date('2027-10-31T02:30:00+01:00');
    expect(periodStart(second, 'Europe/Berlin', 'day', 1, 0).toISOString()).toBe('2027-10-31T01:30:00.000Z');
    expect(iso(periodStart(second, 'Europe/Berlin', 'day', 1, 1), 'Europe/Berlin')).toBe('2027-11-01T02:30:00.000+01:00');
  });

  it('America/New_York: 02:30 on 2027-03-14 does not exist, 01:30 on 2027-11-07 exists twice', () => {
    const anchor = new Date('2027-02-14T02:30:00-05:00');
    expect(iso(periodStart(anchor, 'America/New_York', 'month', 1, 1), 'America/New_York')).toBe('2027-03-14T03:00:00.000-04:00');
    const weekly = new Date('2027-10-31T01:30:00-04:00');
    expect(iso(periodStart(weekly, 'America/New_York', 'week', 1, 1), 'America/New_York')).toBe('2027-11-07T01:30:00.000-04:00');
    expect(iso(periodStart(weekly, 'America/New_York', 'week', 1, 2), 'America/New_York')).toBe('2027-11-14T01:30:00.000-05:00');
  });

  it('a zone whose DST starts at midnight moves a 00:30 period to 01:00 that day (America/Santiago, 2027-09-05)', () => {
    const anchor = new Date('2027-08-05T00:30:00-04:00');
    expect(iso(periodStart(anchor, 'America/Santiago', 'month', 1, 1), 'America/Santiago')).toBe('2027-09-05T01:00:00.000-03:00');
  });

  it('Pacific/Apia skipped 2011-12-30: a period due that day starts when the next day begins', () => {
    const anchor = new Date('2011-12-29T12:00:00-10:00');
    expect([1, 2].map((k) => iso(periodStart(anchor, 'Pacific/Apia', 'day', 1, k), 'Pacific/Apia'))).toEqual([
      '2011-12-31T00:00:00.000+14:00',
      '2011-12-31T12:00:00.000+14:00',
    ]);
  });

  it('a half-hour DST (Australia/Lord_Howe) and a :45 offset (Asia/Kathmandu, Pacific/Chatham) keep the local time', () => {
    const lordHowe = new Date('2027-09-03T02:15:00+10:30');
    // DST starts 2027-10-03 at 02:00 → 02:30: 02:15 does not exist that day.
    expect(iso(periodStart(lordHowe, 'Australia/Lord_Howe', 'month', 1, 1), 'Australia/Lord_Howe')).toBe('2027-10-03T02:30:00.000+11:00');
    expect(iso(periodStart(lordHowe, 'Australia/Lord_Howe', 'month', 1, 2), 'Australia/Lord_Howe')).toBe('2027-11-03T02:15:00.000+11:00');
    const kathmandu = new Date('2027-01-31T23:45:00+05:45');
    expect(iso(periodStart(kathmandu, 'Asia/Kathmandu', 'month', 1, 1), 'Asia/Kathmandu')).toBe('2027-02-28T23:45:00.000+05:45');
    const chatham = new Date('2027-01-31T10:00:00+13:45');
    expect(iso(periodStart(chatham, 'Pacific/Chatham', 'month', 1, 3), 'Pacific/Chatham')).toBe('2027-04-30T10:00:00.000+12:45');
  });

  it('firstPeriodIndexAtOrAfter: before or at the anchor is 0; on a boundary it is that period; far away it is exact and fast', () => {
    const anchor = new Date('2027-01-31T00:00:00.000Z');
    expect(firstPeriodIndexAtOrAfter(anchor, 'UTC', 'month', 1, new Date('2020-01-01T00:00:00Z'))).toBe(0);
    expect(firstPeriodIndexAtOrAfter(anchor, 'UTC', 'month', 1, anchor)).toBe(0);
    expect(firstPeriodIndexAtOrAfter(anchor, 'UTC', 'month', 1, new Date('2027-01-31T00:00:00.001Z'))).toBe(1);
    expect(firstPeriodIndexAtOrAfter(anchor, 'UTC', 'month', 1, new Date('2027-02-28T00:00:00.000Z'))).toBe(1);
    expect(firstPeriodIndexAtOrAfter(anchor, 'UTC', 'month', 1, new Date('2027-03-01T00:00:00.000Z'))).toBe(2);
    const started = Date.now();
    const k = firstPeriodIndexAtOrAfter(new Date('1990-03-25T01:30:00+01:00'), 'Europe/Berlin', 'day', 1, new Date('2100-06-01T00:00:00Z'));
    expect(periodStart(new Date('1990-03-25T01:30:00+01:00'), 'Europe/Berlin', 'day', 1, k).toISOString()).toBe('2100-06-01T23:30:00.000Z');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('addTrialDays counts calendar days in the zone', () => {
    const start = new Date('2027-03-20T09:00:00+01:00');
    expect(iso(addTrialDays(start, 'Europe/Berlin', 14), 'Europe/Berlin')).toBe('2027-04-03T09:00:00.000+02:00');
    expect(addTrialDays(start, 'Europe/Berlin', 0).getTime()).toBe(start.getTime());
  });

  it('accepts IANA names only', () => {
    for (const zone of ['UTC', 'Europe/Moscow', 'America/Argentina/Buenos_Aires', 'Etc/GMT+3', 'Asia/Kathmandu']) {
      expect(isValidTimeZone(zone)).toBe(true);
    }
    for (const zone of ['+03:00', '-05', 'UTC+3', 'Z', '', 'garbage', 'Mars/Olympus', 'europe/moscow', 'Europe/Moscow ', '../etc/passwd']) {
      expect(isValidTimeZone(zone)).toBe(false);
    }
    expect(Intl.supportedValuesOf('timeZone').every(isValidTimeZone)).toBe(true);
  });

  it('limits one period to three years', () => {
    expect([maxPeriodWithinThreeYears('day', 1096), maxPeriodWithinThreeYears('day', 1097)]).toEqual([true, false]);
    expect([maxPeriodWithinThreeYears('week', 156), maxPeriodWithinThreeYears('week', 157)]).toEqual([true, false]);
    expect([maxPeriodWithinThreeYears('month', 36), maxPeriodWithinThreeYears('month', 37)]).toEqual([true, false]);
    expect([maxPeriodWithinThreeYears('year', 3), maxPeriodWithinThreeYears('year', 4)]).toEqual([true, false]);
    expect([maxPeriodWithinThreeYears('month', 0), maxPeriodWithinThreeYears('month', 1.5)]).toEqual([false, false]);
  });

  it('refuses bad arguments instead of computing a wrong date', () => {
    const anchor = new Date('2027-01-31T00:00:00.000Z');
    expect(() => periodStart(anchor, '+03:00', 'month', 1, 1)).toThrow(RangeError);
    expect(() => periodStart(anchor, 'UTC', 'month', 0, 1)).toThrow(RangeError);
    expect(() => periodStart(anchor, 'UTC', 'month', 1, -1)).toThrow(RangeError);
    expect(() => periodStart(anchor, 'UTC', 'fortnight' as BillingInterval, 1, 1)).toThrow(RangeError);
    expect(() => periodStart(new Date(NaN), 'UTC', 'month', 1, 1)).toThrow(RangeError);
    expect(() => periodStart(anchor, 'UTC', 'constructor' as BillingInterval, 1, 1)).toThrow(RangeError);
    expect(maxPeriodWithinThreeYears('constructor' as BillingInterval, 1)).toBe(false);
    expect(() => periodStart(anchor, 'UTC', 'year', 3, 1e12)).toThrow(RangeError);
  });

  it('counts the periods begun by an instant: Jan 31 monthly, a year of downtime', () => {
    const anchor = new Date('2027-01-31T00:00:00.000Z');
    expect(periodsBegunBy(anchor, 'UTC', 'month', 1, 0, new Date('2027-01-30T23:59:59.999Z'))).toBe(0);
    expect(periodsBegunBy(anchor, 'UTC', 'month', 1, 0, anchor)).toBe(1);
    // Feb 28 is period 1's start; by Mar 1 two periods have begun, then one per month end.
    expect(periodsBegunBy(anchor, 'UTC', 'month', 1, 0, new Date('2027-03-01T00:00:00.000Z'))).toBe(2);
    expect(periodsBegunBy(anchor, 'UTC', 'month', 1, 1, new Date('2028-01-31T00:00:00.000Z'))).toBe(12);
    expect(periodsBegunBy(anchor, 'UTC', 'month', 1, 20, new Date('2028-01-31T00:00:00.000Z'))).toBe(0);
  });

  it('counts begun periods consistently with the period starts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.constantFrom<BillingInterval>('day', 'week', 'month', 'year'), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), (zone, interval, target, from) => {
        const anchor = new Date('2027-01-31T10:30:00.000Z');
        const instant = periodStart(anchor, zone, interval, 1, target);
        const begun = periodsBegunBy(anchor, zone, interval, 1, from, instant);
        // Exactly the periods from..target have begun at the start of period `target`.
        return begun === Math.max(0, target + 1 - from);
      }),
      { numRuns: 500 },
    );
  });
});
