import fc from 'fast-check';
import { DateTime } from 'luxon';
import { caseArb, RUNS } from '../../../test/support/billing-calendar-oracle';
import { firstRenewalAfterNotice, periodCalendar } from './billing-calendar';

const DAY = 86_400_000;

describe('billing calendar: the first renewal after a notice', () => {
  it('is a period start at least the notice (calendar days in the zone) after now, and the one before it is not', () => {
    fc.assert(
      fc.property(caseArb(), fc.integer({ min: 0, max: 90 }), fc.integer({ min: -40 * DAY, max: 400 * DAY }), ({ zone, interval, anchor, count, index }, noticeDays, offsetMs) => {
        const calendar = periodCalendar(anchor, zone, interval, count);
        const now = new Date(calendar.start(index).getTime() + offsetMs);
        const { index: found, start } = firstRenewalAfterNotice(calendar, index, now, noticeDays, zone);
        const noticeEnds = DateTime.fromJSDate(now, { zone }).plus({ days: noticeDays }).toMillis();
        expect(found).toBeGreaterThanOrEqual(index);
        expect(start.getTime()).toBe(calendar.start(found).getTime());
        expect(start.getTime()).toBeGreaterThanOrEqual(noticeEnds);
        if (found > index) expect(calendar.start(found - 1).getTime()).toBeLessThan(noticeEnds);
      }),
      { numRuns: RUNS / 3 },
    );
  });

  it('on month ends: a monthly subscription anchored on January 31 told on February 1 with 30 days moves at its March 31 renewal', () => {
    const calendar = periodCalendar(new Date('2027-01-31T09:00:00.000Z'), 'Europe/Moscow', 'month', 1);
    const { start } = firstRenewalAfterNotice(calendar, 1, new Date('2027-02-01T09:00:00.000Z'), 30, 'Europe/Moscow');
    // February's renewal (the 28th) is under 30 days away; March 31 is the first that is not.
    expect(start.toISOString()).toBe('2027-03-31T09:00:00.000Z');
  });

  it('across a DST change: notice days are calendar days in the zone, so a renewal at the same local time qualifies', () => {
    // Monthly at 09:00 New York time from 2027-02-20 (EST, 14:00Z); clocks go forward on 2027-03-14.
    const calendar = periodCalendar(new Date('2027-02-20T14:00:00.000Z'), 'America/New_York', 'month', 1);
    // Told at the first renewal's instant with 28 days: 2027-03-20 09:00 EDT (13:00Z) is 28 calendar days later, though
    // one hour short of 28 × 24 hours; it qualifies.
    expect(firstRenewalAfterNotice(calendar, 1, new Date('2027-02-20T14:00:00.000Z'), 28, 'America/New_York').start.toISOString()).toBe('2027-03-20T13:00:00.000Z');
    // One day more and it is April's.
    expect(firstRenewalAfterNotice(calendar, 1, new Date('2027-02-20T14:00:00.000Z'), 29, 'America/New_York').start.toISOString()).toBe('2027-04-20T13:00:00.000Z');
  });
});
