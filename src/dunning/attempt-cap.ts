/** The card networks count attempts on a card in a rolling window of this length. */
export const ATTEMPT_WINDOW_MS = 30 * 86_400_000;

/**
 * The card networks' cap, the one rule every attempt keeps: the earliest time at or after `candidate` at which a new
 * attempt leaves at most `maxAttempts` in any 30 days, given the times of earlier attempts (any order).
 */
export function respectCap(maxAttempts: number, attemptTimes: readonly Date[], candidate: Date): Date {
  const inWindow = attemptTimes
    .map((t) => t.getTime())
    .filter((t) => t > candidate.getTime() - ATTEMPT_WINDOW_MS)
    .sort((a, b) => a - b);
  if (inWindow.length < maxAttempts) return candidate;
  // The oldest attempt that must leave the window before one more fits.
  const release = inWindow[inWindow.length - maxAttempts] + ATTEMPT_WINDOW_MS + 1;
  return new Date(Math.max(candidate.getTime(), release));
}
