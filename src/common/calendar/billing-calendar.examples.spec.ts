import fc from 'fast-check';
import { DateTime } from 'luxon';
import { ZONES } from '../../../test/support/billing-calendar-oracle';
import { addTrialDays, BillingInterval, firstPeriodIndexAtOrAfter, isValidTimeZone, maxPeriodWithinThreeYears, periodCalendar, periodEnd, periodsBegunBy, periodStart } from './billing-calendar';

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
    // Fast: a handful of calendar steps for 40,000 daily periods, not one per period (counted, not timed, so a busy
    // machine cannot fail it).
    const steps = jest.spyOn(DateTime.prototype, 'plus');
    try {
      const k = firstPeriodIndexAtOrAfter(new Date('1990-03-25T01:30:00+01:00'), 'Europe/Berlin', 'day', 1, new Date('2100-06-01T00:00:00Z'));
      expect(steps.mock.calls.length).toBeGreaterThan(0);
      expect(steps.mock.calls.length).toBeLessThan(20);
      expect(periodStart(new Date('1990-03-25T01:30:00+01:00'), 'Europe/Berlin', 'day', 1, k).toISOString()).toBe('2100-06-01T23:30:00.000Z');
    } finally {
      steps.mockRestore();
    }
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

  it('one calendar answers what the free functions answer, and a start it handed out cannot change its next answers', () => {
    const anchor = new Date('2024-01-31T10:00:00Z');
    const calendar = periodCalendar(anchor, 'Europe/Moscow', 'month', 1);
    const handedOut = calendar.start(1);
    expect(handedOut.toISOString()).toBe(periodStart(anchor, 'Europe/Moscow', 'month', 1, 1).toISOString());
    handedOut.setTime(0);
    expect(calendar.start(1).toISOString()).toBe('2024-02-29T10:00:00.000Z');
    const at = new Date('2024-05-01T00:00:00Z');
    expect(calendar.begunBy(1, at)).toBe(periodsBegunBy(anchor, 'Europe/Moscow', 'month', 1, 1, at));
    expect(calendar.begunBy(1, at)).toBe(3);
    expect(calendar.firstIndexAtOrAfter(at)).toBe(firstPeriodIndexAtOrAfter(anchor, 'Europe/Moscow', 'month', 1, at));
  });
});
