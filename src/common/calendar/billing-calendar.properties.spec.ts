import fc from 'fast-check';
import { DateTime } from 'luxon';
import { addMonths, anchorArb, caseArb, dateKey, daysIn, expectedLocal, expectWallTime, INTERVALS, localInstant, MINUTE, RUNS, transitions, wall, wallTimeExists, zoneArb, ZONES } from '../../../test/support/billing-calendar-oracle';
import { addTrialDays, firstPeriodIndexAtOrAfter, periodEnd, periodsBegunBy, periodStart, periodStarts } from './billing-calendar';

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

  it('periodsBegunBy counts the periods from an index whose start is at or before the instant, one by one', () => {
    // Instants around period starts (exactly on one, a millisecond either side) and far past them: the one-period
    // shortcut and the search must both agree with counting.
    fc.assert(
      fc.property(caseArb(), fc.nat({ max: 6 }), fc.nat({ max: 5 }), fc.integer({ min: -1, max: 1 }), ({ zone, interval, anchor, count, index }, ahead, back, nudge) => {
        const fromIndex = Math.max(0, index - back);
        const instant = new Date(periodStart(anchor, zone, interval, count, fromIndex + ahead).getTime() + nudge);
        let counted = 0;
        while (periodStart(anchor, zone, interval, count, fromIndex + counted).getTime() <= instant.getTime()) counted++;
        expect(periodsBegunBy(anchor, zone, interval, count, fromIndex, instant)).toBe(counted);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('one calendar answers each index, asked in any order and again, as periodStart does alone', () => {
    fc.assert(
      fc.property(caseArb(), fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 8 }), ({ zone, interval, anchor, count }, indexes) => {
        const starts = periodStarts(anchor, zone, interval, count);
        for (const k of [...indexes, ...indexes]) {
          if (k === 0) expect(starts(k).getTime()).toBe(anchor.getTime());
          else expectWallTime(starts(k), expectedLocal(anchor, zone, interval, k * count), zone);
        }
      }),
      { numRuns: RUNS / 3 },
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
