import { DateTime } from 'luxon';
import { prorate, prorateIntervalChange } from './proration';

/**
 * Worked cases, each computed by hand (D and d counted on a calendar, the quotients rounded half away from zero).
 * Times are local wall-clock readings in the case's zone. Columns: zone, period start, period end, change,
 * old amount, new amount, paid, then the expected D, d, credit, cost, net.
 */
type Case = [string, string, string, string, string, number, number, boolean, number, number, number, number, number];

const SAME_INTERVAL: Case[] = [
  // 31-day month, UTC
  ['31-day month, change on the first day', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-01T12:00', 1000, 2000, true, 31, 31, 1000, 2000, 1000],
  ['31-day month, change on the last day', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-31T23:59', 1000, 2000, true, 31, 1, 32, 65, 33],
  ['31-day month, mid-month upgrade', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-16T10:00', 1000, 2000, true, 31, 16, 516, 1032, 516],
  ['31-day month, unpaid period earns no credit', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-16T10:00', 1000, 2000, false, 31, 16, 0, 1032, 1032],
  ['31-day month, from a free plan', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-16T10:00', 0, 1000, true, 31, 16, 0, 516, 516],
  ['31-day month, to a free plan', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-16T10:00', 1000, 0, true, 31, 16, 516, 0, -516],
  ['31-day month, unpaid downgrade on the first day', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-01T00:00', 1000, 500, false, 31, 31, 0, 500, 500],
  ['31-day month, change on the end date before the end time', 'UTC', '2026-01-01T10:00', '2026-02-01T10:00', '2026-02-01T09:00', 1000, 2000, false, 31, 0, 0, 0, 0],
  // 28-day and 29-day months
  ['28-day month, mid-month', 'UTC', '2026-02-01T00:00', '2026-03-01T00:00', '2026-02-15T08:00', 1000, 3000, true, 28, 14, 500, 1500, 1000],
  ['28-day month, quantity 1 → 10000 on the last day', 'UTC', '2026-02-01T00:00', '2026-03-01T00:00', '2026-02-28T23:59', 99, 990000, true, 28, 1, 4, 35357, 35353],
  ['leap February, change on Feb 29', 'UTC', '2028-02-01T00:00', '2028-03-01T00:00', '2028-02-29T09:00', 2900, 5800, true, 29, 1, 100, 200, 100],
  ['leap February, mid-month', 'UTC', '2028-02-01T00:00', '2028-03-01T00:00', '2028-02-15T09:00', 1000, 2000, true, 29, 15, 517, 1034, 517],
  // 30-day month, halves
  ['30-day month', 'UTC', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-11T00:00', 999, 1999, true, 30, 20, 666, 1333, 667],
  ['30-day month, unpaid downgrade', 'UTC', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-11T00:00', 2000, 1000, false, 30, 20, 0, 667, 667],
  ['halves round away from zero (1.5 → 2, 0.5 → 1)', 'UTC', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-30T12:00', 45, 15, true, 30, 1, 2, 1, -1],
  ['halves round away from zero (2.5 → 3, 3.5 → 4)', 'UTC', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-30T12:00', 75, 105, true, 30, 1, 3, 4, 1],
  ['quantity 10 → 3, half a month (499.5 → 500)', 'UTC', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-16T00:00', 3330, 999, true, 30, 15, 1665, 500, -1165],
  // Periods anchored on the 31st (month ends clamped)
  ['anchor 31: Jan 31 → Feb 28', 'UTC', '2026-01-31T10:00', '2026-02-28T10:00', '2026-02-14T10:00', 1000, 2000, true, 28, 14, 500, 1000, 500],
  ['anchor 31: Feb 28 → Mar 31', 'UTC', '2026-02-28T10:00', '2026-03-31T10:00', '2026-03-01T10:00', 3100, 6200, true, 31, 30, 3000, 6000, 3000],
  ['anchor 31: Mar 31 → Apr 30, downgrade now', 'UTC', '2026-03-31T10:00', '2026-04-30T10:00', '2026-04-29T12:00', 3000, 1500, true, 30, 1, 100, 50, -50],
  ['anchor 31: Jan 31 → Feb 29 of a leap year, change on the end date', 'UTC', '2028-01-31T10:00', '2028-02-29T10:00', '2028-02-29T05:00', 1000, 2000, true, 29, 0, 0, 0, 0],
  ['anchor 31: Feb 29 → Mar 31, same price', 'UTC', '2028-02-29T10:00', '2028-03-31T10:00', '2028-02-29T11:00', 1000, 1000, true, 31, 31, 1000, 1000, 0],
  // DST days: a 23- or 25-hour day is one day
  ['Berlin, spring forward (Mar 29)', 'Europe/Berlin', '2026-03-01T00:00', '2026-04-01T00:00', '2026-03-29T03:30', 3100, 6200, true, 31, 3, 300, 600, 300],
  ['Berlin, fall back (Oct 25, ambiguous 02:30)', 'Europe/Berlin', '2026-10-01T00:00', '2026-11-01T00:00', '2026-10-25T02:30', 3100, 4650, true, 31, 7, 700, 1050, 350],
  ['Berlin, period starting after the gap', 'Europe/Berlin', '2026-03-29T03:00', '2026-04-29T02:30', '2026-04-28T23:00', 3100, 6200, true, 31, 1, 100, 200, 100],
  ['Berlin, daily period on the 23-hour day', 'Europe/Berlin', '2026-03-29T00:00', '2026-03-30T00:00', '2026-03-29T12:00', 100, 300, true, 1, 1, 100, 300, 200],
  ['New York, spring forward (Mar 8)', 'America/New_York', '2026-03-01T00:00', '2026-04-01T00:00', '2026-03-08T03:00', 1000, 2500, true, 31, 24, 774, 1935, 1161],
  ['New York, fall back (Nov 1), downgrade', 'America/New_York', '2026-10-15T12:00', '2026-11-15T12:00', '2026-11-01T01:30', 3100, 1550, true, 31, 14, 1400, 700, -700],
  ['Los Angeles, local evening is the next UTC day', 'America/Los_Angeles', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-31T20:00', 3100, 9300, true, 31, 1, 100, 300, 200],
  ['Sydney, spring forward (Oct 4)', 'Australia/Sydney', '2026-10-01T00:00', '2026-11-01T00:00', '2026-10-04T03:00', 3100, 6200, true, 31, 28, 2800, 5600, 2800],
  ['Sydney, fall back (Apr 5)', 'Australia/Sydney', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-05T02:30', 3000, 4500, true, 30, 26, 2600, 3900, 1300],
  ['Auckland, spring forward (Sep 27)', 'Pacific/Auckland', '2026-09-01T00:00', '2026-10-01T00:00', '2026-09-27T03:30', 3000, 6000, true, 30, 4, 400, 800, 400],
  ['Santiago, fall back (Apr 4 23:30 twice)', 'America/Santiago', '2026-04-01T00:00', '2026-05-01T00:00', '2026-04-04T23:30', 3000, 1000, true, 30, 27, 2700, 900, -1800],
  ["St John's, half-hour zone, spring forward (Mar 8)", 'America/St_Johns', '2026-02-28T00:00', '2026-03-28T00:00', '2026-03-08T12:00', 2800, 4200, true, 28, 20, 2000, 3000, 1000],
  ['London, period at 23:30 across fall back', 'Europe/London', '2026-10-24T23:30', '2026-11-24T23:30', '2026-10-25T00:30', 3100, 6200, true, 31, 30, 3000, 6000, 3000],
  ['London, change on the start date after the start time', 'Europe/London', '2026-10-24T23:30', '2026-11-24T23:30', '2026-10-24T23:45', 3100, 6200, true, 31, 31, 3100, 6200, 3100],
  ['Dublin, fall back (Oct 25), to a free plan', 'Europe/Dublin', '2026-10-01T00:00', '2026-11-01T00:00', '2026-10-25T01:30', 3100, 0, true, 31, 7, 700, 0, -700],
  // Local date differs from the UTC date
  ['Moscow, 23:30 local is still Jan 31', 'Europe/Moscow', '2026-01-15T00:00', '2026-02-15T00:00', '2026-01-31T23:30', 1000, 2000, true, 31, 15, 484, 968, 484],
  ['Moscow, 01:00 local is already Feb 1', 'Europe/Moscow', '2026-01-15T00:00', '2026-02-15T00:00', '2026-02-01T01:00', 1000, 2000, true, 31, 14, 452, 903, 451],
  ['Kolkata, half-hour offset, last minute of February', 'Asia/Kolkata', '2026-02-01T00:00', '2026-03-01T00:00', '2026-02-28T23:59', 2800, 5600, true, 28, 1, 100, 200, 100],
  ['Tehran, quantity 1 → 2', 'Asia/Tehran', '2026-03-20T00:00', '2026-04-20T00:00', '2026-04-10T00:00', 3100, 6200, true, 31, 10, 1000, 2000, 1000],
  ['Apia (UTC+13), quantity 1 → 3', 'Pacific/Apia', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-31T23:00', 3100, 9300, true, 31, 1, 100, 300, 200],
  ['Kiritimati (UTC+14), first half hour', 'Pacific/Kiritimati', '2026-02-01T00:00', '2026-03-01T00:00', '2026-02-01T00:30', 2800, 5600, true, 28, 28, 2800, 5600, 2800],
  ['Pago Pago (UTC−11), downgrade on the last day', 'Pacific/Pago_Pago', '2026-02-01T00:00', '2026-03-01T00:00', '2026-02-28T22:00', 2800, 700, true, 28, 1, 100, 25, -75],
  // Yearly plans
  ['yearly, 365 days, from Jul 2', 'UTC', '2026-01-01T00:00', '2027-01-01T00:00', '2026-07-02T00:00', 36500, 73000, true, 365, 183, 18300, 36600, 18300],
  ['yearly, 366 days (holds Feb 29 2028), change on Feb 29', 'UTC', '2027-03-01T00:00', '2028-03-01T00:00', '2028-02-29T12:00', 36600, 73200, true, 366, 1, 100, 200, 100],
  ['yearly anchored on Feb 29, downgrade', 'UTC', '2028-02-29T00:00', '2029-02-28T00:00', '2028-08-30T12:00', 100000, 50000, true, 365, 182, 49863, 24932, -24931],
  ['yearly, 3 → 5 seats', 'UTC', '2026-01-01T00:00', '2027-01-01T00:00', '2026-10-01T00:00', 36000, 60000, true, 365, 92, 9074, 15123, 6049],
  ['yearly leap year, last day', 'UTC', '2028-01-01T00:00', '2029-01-01T00:00', '2028-12-31T18:00', 36600, 73200, true, 366, 1, 100, 200, 100],
  ['yearly leap year, change on Feb 29', 'UTC', '2028-01-01T00:00', '2029-01-01T00:00', '2028-02-29T12:00', 100000, 120000, true, 366, 307, 83880, 100656, 16776],
  ['yearly, amounts beyond 2^32 (exact)', 'UTC', '2026-01-01T00:00', '2027-01-01T00:00', '2026-12-31T00:00', 9_000_000_000_000, 10_000_000_000_000, true, 365, 1, 24657534247, 27397260274, 2739726027],
  // Quarterly, weekly, daily
  ['quarterly, 90 days', 'UTC', '2026-01-01T00:00', '2026-04-01T00:00', '2026-03-02T00:00', 9000, 18000, true, 90, 30, 3000, 6000, 3000],
  ['quarterly in a leap year, change on the first day', 'UTC', '2028-01-01T00:00', '2028-04-01T00:00', '2028-01-01T00:00', 9100, 4550, true, 91, 91, 9100, 4550, -4550],
  ['weekly, Thursday', 'UTC', '2026-01-05T00:00', '2026-01-12T00:00', '2026-01-08T09:00', 700, 1400, true, 7, 4, 400, 800, 400],
  ['weekly, last day', 'UTC', '2026-01-05T00:00', '2026-01-12T00:00', '2026-01-11T23:00', 1000, 1500, true, 7, 1, 143, 214, 71],
  ['weekly across Berlin spring forward', 'Europe/Berlin', '2026-03-23T09:00', '2026-03-30T09:00', '2026-03-29T12:00', 999, 1999, true, 7, 1, 143, 286, 143],
  ['weekly, 2 → 1 seats on the first day', 'UTC', '2026-01-05T00:00', '2026-01-12T00:00', '2026-01-05T08:00', 1000, 500, true, 7, 7, 1000, 500, -500],
  ['every 2 weeks, halves', 'UTC', '2026-01-05T00:00', '2026-01-19T00:00', '2026-01-12T00:00', 1001, 2001, true, 14, 7, 501, 1001, 500],
  ['daily, same day', 'UTC', '2026-01-01T10:00', '2026-01-02T10:00', '2026-01-01T15:00', 100, 250, true, 1, 1, 100, 250, 150],
  ['daily, on the end date', 'UTC', '2026-01-01T10:00', '2026-01-02T10:00', '2026-01-02T09:00', 100, 250, true, 1, 0, 0, 0, 0],
  ['every 2 days, 0.5 → 1 and 1.5 → 2', 'UTC', '2026-01-01T00:00', '2026-01-03T00:00', '2026-01-02T00:00', 1, 3, true, 2, 1, 1, 2, 1],
  ['every 2 days, 2.5 → 3 and 3.5 → 4', 'UTC', '2026-01-01T00:00', '2026-01-03T00:00', '2026-01-02T00:00', 5, 7, true, 2, 1, 3, 4, 1],
  ['every 4 days, downgrade, 1.5 → 2 and 0.5 → 1', 'UTC', '2026-01-01T00:00', '2026-01-05T00:00', '2026-01-03T00:00', 3, 1, true, 4, 2, 2, 1, -1],
];

const INTERVAL_CHANGE: Case[] = [
  ['monthly → yearly, paid', 'UTC', '2026-01-01T00:00', '2026-02-01T00:00', '2026-01-16T00:00', 3100, 36500, true, 31, 16, 1600, 36500, 34900],
  ['yearly → monthly, paid: credit beyond the new period goes to the balance', 'UTC', '2026-01-01T00:00', '2027-01-01T00:00', '2026-07-02T00:00', 36500, 1000, true, 365, 183, 18300, 1000, -17300],
  ['yearly → monthly, unpaid', 'UTC', '2026-01-01T00:00', '2027-01-01T00:00', '2026-07-02T00:00', 36500, 1000, false, 365, 183, 0, 1000, 1000],
  ['weekly → monthly in Berlin across the gap', 'Europe/Berlin', '2026-03-23T09:00', '2026-03-30T09:00', '2026-03-29T12:00', 700, 3000, true, 7, 1, 100, 3000, 2900],
];

const at = (local: string, zone: string) => DateTime.fromISO(local, { zone }).toJSDate();

function run(fn: typeof prorate, [, zone, start, end, change, oldAmount, newAmount, paid]: Case) {
  return fn({ timezone: zone, periodStart: at(start, zone), periodEnd: at(end, zone), changeAt: at(change, zone), oldAmount, newAmount, paid });
}

describe('proration: worked cases', () => {
  it('holds at least 60 cases', () => {
    expect(SAME_INTERVAL.length + INTERVAL_CHANGE.length).toBeGreaterThanOrEqual(60);
  });

  it.each(SAME_INTERVAL)('%s', (...c) => {
    const [, , , , , , , , totalDays, remainingDays, credit, cost, net] = c;
    expect(run(prorate, c)).toEqual({ totalDays, remainingDays, credit, cost, net });
  });

  it.each(INTERVAL_CHANGE)('interval change: %s', (...c) => {
    const [, , , , , , , , totalDays, remainingDays, credit, cost, net] = c;
    expect(run(prorateIntervalChange, c)).toEqual({ totalDays, remainingDays, credit, cost, net });
  });
});
