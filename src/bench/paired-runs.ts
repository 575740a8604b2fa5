/** The pairs of one figure, each a daemon pass and the bare client's run right after it. */
export interface PairSummary<P> {
  /** The pair of median ratio (of an even count, the lower of the two middle ones). */
  median: P;
  lowest: number;
  highest: number;
  count: number;
}

/**
 * The pair to report for a figure measured in alternating pairs. A shared machine's speed drifts from one minute to
 * the next (the bare client's own rate has moved by half within a run), so a figure is a ratio within a pair, and the
 * median of several, with their range beside it, says how far one run could be trusted.
 */
export function summarizePairs<P>(pairs: P[], ratioOf: (pair: P) => number): PairSummary<P> {
  if (pairs.length === 0) throw new RangeError('a figure needs at least one pair');
  const sorted = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b));
  return { median: sorted[Math.floor((sorted.length - 1) / 2)], lowest: ratioOf(sorted[0]), highest: ratioOf(sorted[sorted.length - 1]), count: pairs.length };
}

/** ` (median of 3 pairs, 0.62-0.77)` after a figure measured in several pairs; nothing after a single one. */
export function pairsRange(summary: PairSummary<unknown>): string {
  return summary.count > 1 ? ` (median of ${summary.count} pairs, ${summary.lowest.toFixed(2)}-${summary.highest.toFixed(2)})` : '';
}
