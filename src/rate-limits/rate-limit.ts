/** A token bucket's shape: `perSecond` tokens added each second, at most `burst` held (twice the rate). */
export interface RateLimit {
  perSecond: number;
  burst: number;
  /** As configured, for messages (`100/s`). */
  text: string;
}

const RATE = /^\s*(\d{1,7})\s*\/\s*(s|m|h)\s*$/;
const SECONDS = { s: 1, m: 60, h: 3600 } as const;

/** Whether `text` is a rate such as `100/s`, `600/m` or `1000/h` (a positive count per second, minute or hour). */
export function isRateLimit(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const match = RATE.exec(text);
  return match !== null && Number(match[1]) > 0;
}

/** `100/s` → 100 a second, burst 200. The burst is at least 1, so a slow rate still lets one request in. */
export function parseRateLimit(text: string): RateLimit {
  const match = RATE.exec(text);
  if (!match || Number(match[1]) <= 0) throw new Error(`Not a rate: ${text}`);
  const count = Number(match[1]);
  return { perSecond: count / SECONDS[match[2] as keyof typeof SECONDS], burst: Math.max(1, 2 * count), text: `${count}/${match[2]}` };
}
