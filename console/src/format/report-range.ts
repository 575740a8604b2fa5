export type Interval = 'day' | 'week' | 'month';

export const RANGES: Record<Interval, { count: number; label: string }> = {
  month: { count: 12, label: 'Monthly, the last 12 months' },
  week: { count: 12, label: 'Weekly, the last 12 weeks' },
  day: { count: 30, label: 'Daily, the last 30 days' },
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
