import { DateTime, FixedOffsetZone, IANAZone, Zone } from 'luxon';

/**
 * Calendar math for billing periods: pure functions, no clock, no Nest.
 *
 * Every period is derived from the anchor (period k = anchor's local date-time + k × interval), never
 * chained from the previous period, so a clamped month end (Jan 31 → Feb 28) does not drift into later
 * months (Mar 31, not Mar 28). Arithmetic is done on the local wall-clock in the subscription's IANA
 * zone, then turned back into an instant:
 * - a wall-clock time that does not exist (spring-forward gap) becomes the first instant after the gap;
 * - a wall-clock time that exists twice (fall-back) becomes the earlier of the two instants.
 * (Zones that once skipped a whole calendar day, Pacific/Kiritimati 1994-12-31 and Pacific/Apia
 * 2011-12-30, make a 00:00 daily period due that day start with the next one; those days are past.)
 */

export type BillingInterval = 'day' | 'week' | 'month' | 'year';

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** Upper bound on one period: the plan rule "one period is at most 3 years". */
const MAX_COUNT: Record<BillingInterval, number> = { day: 1096, week: 156, month: 36, year: 3 };

/** Average lengths, only used to estimate an index before correcting it exactly. */
const AVERAGE_MS: Record<BillingInterval, number> = {
  day: MS_PER_DAY,
  week: 7 * MS_PER_DAY,
  month: (365.2425 / 12) * MS_PER_DAY,
  year: 365.2425 * MS_PER_DAY,
};

/**
 * A wall-clock reading in the subscription's zone, held as a luxon DateTime in UTC: its fields are the local date
 * and time, and calendar arithmetic on it ignores DST (a day is a calendar day, month ends are clamped).
 */
type WallClock = DateTime;

// An IANA name is one or more `/`-separated segments, each starting with an uppercase letter
// ("UTC", "Europe/Moscow", "America/Argentina/Buenos_Aires", "Etc/GMT+3"). This keeps out fixed offsets
// such as "+03:00" that newer ICU versions accept as a time zone but that have no DST rules or history.
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

// Checking a name builds an Intl formatter (about 0.1 ms), so known-good names are remembered. Only
// valid names are kept, so the cache is bounded by the tz database (about 600 names).
const validZones = new Set<string>();

/** True for IANA zone names the runtime knows ('UTC', 'Europe/Moscow'); false for offsets and garbage. */
export function isValidTimeZone(zone: string): boolean {
  if (validZones.has(zone)) return true;
  const valid = typeof zone === 'string' && zone.length <= 64 && IANA_NAME.test(zone) && IANAZone.isValidZone(zone);
  if (valid) validZones.add(zone);
  return valid;
}

/** The plan rule "one period is at most 3 years": day ≤ 1096, week ≤ 156, month ≤ 36, year ≤ 3. */
export function maxPeriodWithinThreeYears(interval: BillingInterval, count: number): boolean {
  return Object.hasOwn(MAX_COUNT, interval) && Number.isInteger(count) && count >= 1 && count <= MAX_COUNT[interval];
}

/** Start of period `index` (0-based): the anchor's local date-time in `timezone` plus index × count units. */
export function periodStart(anchor: Date, timezone: string, interval: BillingInterval, intervalCount: number, index: number): Date {
  return periodCalendar(anchor, timezone, interval, intervalCount).start(index);
}

/** periodStart of one calendar for any index (see periodCalendar). */
export function periodStarts(anchor: Date, timezone: string, interval: BillingInterval, intervalCount: number): (index: number) => Date {
  const calendar = periodCalendar(anchor, timezone, interval, intervalCount);
  return (index) => calendar.start(index);
}

/** End of period `index` = start of period `index + 1`. */
export function periodEnd(anchor: Date, timezone: string, interval: BillingInterval, intervalCount: number, index: number): Date {
  checkIndex(index, 'index');
  return periodStart(anchor, timezone, interval, intervalCount, index + 1);
}

/**
 * The smallest k ≥ 0 with periodStart(k) ≥ instant (the first period a resumed subscription bills).
 * Estimated from the average period length, then corrected by a few exact steps, so a subscription
 * paused for decades costs the same as one paused for a day.
 */
export function firstPeriodIndexAtOrAfter(
  anchor: Date,
  timezone: string,
  interval: BillingInterval,
  intervalCount: number,
  instant: Date,
): number {
  return periodCalendar(anchor, timezone, interval, intervalCount).firstIndexAtOrAfter(instant);
}

/** How many periods from `fromIndex` on have begun by `instant` (start ≤ instant): the periods now due. */
export function periodsBegunBy(
  anchor: Date,
  timezone: string,
  interval: BillingInterval,
  intervalCount: number,
  fromIndex: number,
  instant: Date,
): number {
  checkIndex(fromIndex, 'fromIndex');
  checkDate(instant, 'instant');
  return periodCalendar(anchor, timezone, interval, intervalCount).begunBy(fromIndex, instant);
}

/** One subscription's calendar, asked several questions: the functions above, each period start worked out once. */
export interface PeriodCalendar {
  start(index: number): Date;
  firstIndexAtOrAfter(instant: Date): number;
  begunBy(fromIndex: number, instant: Date): number;
}

/**
 * The calendar of one subscription: its arguments are checked and its anchor's local date-time read once, and each
 * period start is computed once however often it is asked, for callers that need several periods of one
 * subscription (a pass materializing thousands of renewals asks whether the next period has begun, then for its
 * bounds).
 */
export function periodCalendar(anchor: Date, timezone: string, interval: BillingInterval, intervalCount: number): PeriodCalendar {
  checkCount(interval, intervalCount);
  const anchorMs = checkDate(anchor, 'anchor');
  let local: { zone: Zone; wall: WallClock } | undefined;
  const known = new Map<number, number>();
  const startMs = (index: number): number => {
    checkIndex(index, 'index');
    // Period 0 is the anchor itself, even when it is the second occurrence of an ambiguous local time.
    if (index === 0) return anchorMs;
    let ms = known.get(index);
    if (ms === undefined) {
      if (!local) {
        const zone = calendarZone(timezone);
        local = { zone, wall: toLocal(anchorMs, zone) };
      }
      ms = fromLocal(addUnits(local.wall, interval, index * intervalCount), local.zone).getTime();
      known.set(index, ms);
    }
    return ms;
  };
  const firstIndexAtOrAfter = (instant: Date): number => {
    const target = checkDate(instant, 'instant');
    if (target <= anchorMs) return 0;
    let k = Math.max(0, Math.floor((target - anchorMs) / (AVERAGE_MS[interval] * intervalCount)));
    // The estimate is off by at most a couple of periods (month lengths, DST hours); walk to the exact answer.
    while (k > 0 && startMs(k - 1) >= target) k--;
    while (startMs(k) < target) k++;
    return k;
  };
  return {
    // A Date of its own each time: a caller may keep or change it.
    start: (index) => new Date(startMs(index)),
    firstIndexAtOrAfter,
    begunBy: (fromIndex, instant) => {
      checkIndex(fromIndex, 'fromIndex');
      const at = checkDate(instant, 'instant');
      // Almost always at most one period has begun since `fromIndex` (a renewal): two period starts answer, no search.
      if (startMs(fromIndex + 1) > at) return startMs(fromIndex) <= at ? 1 : 0;
      return Math.max(0, firstIndexAtOrAfter(new Date(at + 1)) - fromIndex);
    },
  };
}

/** `start` plus `days` calendar days in `timezone`, keeping the local time of day (a trial's end). */
export function addTrialDays(start: Date, timezone: string, days: number): Date {
  checkIndex(days, 'days');
  if (days === 0) return new Date(checkDate(start, 'start'));
  const zone = calendarZone(timezone);
  return fromLocal(addUnits(toLocal(checkDate(start, 'start'), zone), 'day', days), zone);
}

/**
 * The first renewal at least `noticeDays` calendar days (in `timezone`, keeping the time of day) after `now`: the
 * smallest period index from `fromIndex` on whose start is at or after that instant. A plan migration moves a
 * subscription there, so its customer is told at least that long before the new price is charged.
 */
export function firstRenewalAfterNotice(calendar: PeriodCalendar, fromIndex: number, now: Date, noticeDays: number, timezone: string): { index: number; start: Date } {
  checkIndex(fromIndex, 'fromIndex');
  const noticeEnds = addTrialDays(now, timezone, noticeDays);
  const index = Math.max(fromIndex, calendar.firstIndexAtOrAfter(noticeEnds));
  return { index, start: calendar.start(index) };
}

/** Zones whose offset is zero at every instant: answered without Intl, which costs microseconds per offset. */
const ALWAYS_UTC = new Set(['UTC', 'Etc/UTC']);

function calendarZone(timezone: string): Zone {
  if (ALWAYS_UTC.has(timezone)) return FixedOffsetZone.utcInstance;
  if (!isValidTimeZone(timezone)) throw new RangeError(`"${timezone}" is not an IANA time zone (e.g. Europe/Moscow, UTC)`);
  return IANAZone.create(timezone);
}

function checkCount(interval: BillingInterval, count: number): void {
  if (!Object.hasOwn(MAX_COUNT, interval)) throw new RangeError(`interval must be day, week, month or year, got "${String(interval)}"`);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`intervalCount must be an integer ≥ 1, got ${count}`);
}

function checkIndex(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
}

function checkDate(date: Date, name: string): number {
  const ms = date instanceof Date ? date.getTime() : NaN;
  if (Number.isNaN(ms)) throw new RangeError(`${name} must be a valid Date`);
  return ms;
}

function offsetMs(zone: Zone, instant: number): number {
  return zone.offset(instant) * MS_PER_MINUTE;
}

function toLocal(instant: number, zone: Zone): WallClock {
  return DateTime.fromMillis(instant, { zone }).setZone(FixedOffsetZone.utcInstance, { keepLocalTime: true });
}

/**
 * Adds calendar units to a wall-clock reading (luxon): whole calendar days, so a day around a DST change is 23 or
 * 25 hours long once back in the zone; month and year ends are clamped (Jan 31 + 1 month = Feb 28/29).
 */
function addUnits(local: WallClock, interval: BillingInterval, amount: number): WallClock {
  switch (interval) {
    case 'day':
      return local.plus({ days: amount });
    case 'week':
      return local.plus({ days: amount * 7 });
    case 'month':
      return local.plus({ months: amount });
    case 'year':
      return local.plus({ months: amount * 12 });
  }
}

/**
 * The instant a wall-clock reading denotes in `zone`: the earlier one when it occurs twice (fall-back),
 * the first instant after the gap when it does not occur (spring-forward).
 */
function fromLocal(local: WallClock, zone: Zone): Date {
  // Not luxon's own zone conversion: it moves a time in a gap on by the gap's length (02:30 → 03:30) and takes the
  // later of two occurrences, where the billing rules want the gap's end and the earlier occurrence.
  const wall = local.isValid ? local.toMillis() : NaN;
  if (Number.isNaN(wall)) throw new RangeError('the period falls outside the dates this calendar supports');
  // Offsets in force around this wall time; real zones change offset at most once within such a window.
  const before = offsetMs(zone, wall - 2 * MS_PER_DAY);
  const after = offsetMs(zone, wall + 2 * MS_PER_DAY);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetMs(zone, instant) === wall)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]);
  // A gap: the transition instant T satisfies T + before <= wall < T + after. Search for the first
  // instant in that window that already uses the later offset.
  let low = wall - Math.max(before, after);
  let high = wall - Math.min(before, after);
  if (offsetMs(zone, low) === offsetMs(zone, high)) {
    // Not a simple two-offset gap (should not happen with tzdata); fall back to the pre-gap reading.
    return new Date(wall - before);
  }
  const highOffset = offsetMs(zone, high);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetMs(zone, mid) === highOffset) high = mid;
    else low = mid;
  }
  return new Date(high);
}
