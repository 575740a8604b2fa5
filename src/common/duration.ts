/**
 * The duration grammar of the admin API and the environment (`1d`, `12h`: a whole number and one unit of s, m, h, d
 * or w). Kept by hand on purpose: luxon's Duration parses ISO 8601 (`P1D`, `PT12H`), another grammar, and `ms`
 * (installed only as a dependency of express) accepts far more (`1.5h`, `-3d`, `2 years`, a bare number of
 * milliseconds) and answers undefined instead of saying what is wrong.
 */
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

export const DURATION_PATTERN = /^(\d+)\s*([smhdw])$/;

/** Parses one duration such as `30s`, `12h`, `3d` into milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) {
    throw new Error(`"${text}" is not a duration; use a whole number followed by s, m, h, d or w (e.g. 3d)`);
  }
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** Parses `1d,3d,5d` into milliseconds, keeping order. An empty string is an empty list. */
export function parseDurationList(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed.split(',').map(parseDuration);
}
