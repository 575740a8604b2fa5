import type { WebhookApi } from '../state/webhook-state';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** Processing: retries 30 s, 5 min, 15 min and 1 h after the failures, then hourly for 24 h more. */
const PROCESSING_FIRST_DELAYS = [30 * SECOND, 5 * 60 * SECOND, 15 * 60 * SECOND, HOUR];
const PROCESSING_HOURLY_RETRIES = 24;

/** Wallet: retries 30 s, 600 s, 1800 s, then every 3600 s; a delivery not made 24 h after its first attempt is dead. */
const WALLET_DELAYS = [30 * SECOND, 600 * SECOND, 1800 * SECOND, HOUR];
const WALLET_LIFETIME = 24 * HOUR;

/** The most attempts one processing delivery gets: the first plus every retry of the schedule. */
export const PROCESSING_MAX_ATTEMPTS = 1 + PROCESSING_FIRST_DELAYS.length + PROCESSING_HOURLY_RETRIES;

/**
 * How long to wait before the next attempt of a delivery that has failed `failures` times, or undefined when the
 * provider gives up (processing: the queue of that invoice or customer is dropped; wallet: the delivery is dead).
 * `scale` shrinks the whole schedule (tests); `firstAttemptAt` and `now` are epoch milliseconds.
 */
export function retryDelayMs(api: WebhookApi, failures: number, firstAttemptAt: number, now: number, scale: number): number | undefined {
  if (failures < 1) return 0;
  if (api === 'processing') {
    if (failures >= PROCESSING_MAX_ATTEMPTS) return undefined;
    return scale * (PROCESSING_FIRST_DELAYS[failures - 1] ?? HOUR);
  }
  const delay = scale * WALLET_DELAYS[Math.min(failures, WALLET_DELAYS.length) - 1];
  return now + delay - firstAttemptAt > scale * WALLET_LIFETIME ? undefined : delay;
}
