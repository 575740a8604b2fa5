/**
 * The one backoff policy of the engine: exponential from `baseMs`, capped at `capMs`, with "equal jitter"
 * (a random point in the upper half), so replicas that failed together do not retry together, and a brief
 * provider blip costs seconds while a long outage is not hammered.
 */
export function backoffDelayMs(failures: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
