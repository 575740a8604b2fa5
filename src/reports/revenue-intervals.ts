import { DateTime } from 'luxon';

export type ReportInterval = 'day' | 'week' | 'month';

/** Most intervals one report answers. */
export const MAX_INTERVALS = 400;

/**
 * The boundaries of the intervals covering [from, to) in UTC: the first starts at the start of the interval holding
 * `from` (weeks start on Monday), the last ends at or after `to`. N intervals have N + 1 boundaries; at least one.
 */
export function intervalBoundaries(from: Date, to: Date, interval: ReportInterval): Date[] {
  let at = DateTime.fromJSDate(from, { zone: 'utc' }).startOf(interval === 'week' ? 'week' : interval);
  const end = to.getTime();
  const boundaries = [at.toJSDate()];
  do {
    at = at.plus({ [`${interval}s`]: 1 });
    boundaries.push(at.toJSDate());
  } while (at.toMillis() < end && boundaries.length <= MAX_INTERVALS + 1);
  return boundaries;
}
