export type Interval = 'day' | 'week' | 'month';

/** How many intervals the revenue page shows for each (its label is in the catalog, `revenue.range.<interval>`). */
export const RANGES: Record<Interval, { count: number }> = {
  month: { count: 12 },
  week: { count: 12 },
  day: { count: 30 },
};

const DAY_MS = 86_400_000;

/** [from, to) covering `count` intervals up to the one holding `today` (UTC); the API aligns `from` to an interval start. */
export function reportRange(today: string, interval: Interval, count: number): { from: string; to: string } {
  const d = new Date(today);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (interval === 'month') return { from: new Date(Date.UTC(y, m - (count - 1), 1)).toISOString(), to: new Date(Date.UTC(y, m + 1, 1)).toISOString() };
  const end = Date.UTC(y, m, day + 1);
  return { from: new Date(end - count * (interval === 'week' ? 7 : 1) * DAY_MS).toISOString(), to: new Date(end).toISOString() };
}
