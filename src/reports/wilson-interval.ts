/**
 * The 95 % Wilson score interval of a proportion of `successes` in `trials`: unlike the normal approximation it stays
 * inside [0, 1] and is honest with few trials or a rate near 0 or 1. null without trials.
 */
export function wilsonInterval(successes: number, trials: number, z = 1.959964): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return { low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}
