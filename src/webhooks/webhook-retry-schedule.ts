/** The retry ladder of a delivery; see WebhookTuning for the defaults. */
export interface RetrySchedule {
  retryDelaysMs: readonly number[];
  repeatDelayMs: number;
  giveUpAfterMs: number;
  jitter: number;
}

/**
 * How long to wait before the next attempt after `failedAttempts` failed ones (1 after the first failure), or null
 * when that attempt would start more than `giveUpAfterMs` after the delivery was queued (`elapsedMs` ago): then
 * the delivery is failed. Each wait is moved by up to `jitter` of itself either way.
 */
export function webhookRetryDelayMs(failedAttempts: number, elapsedMs: number, schedule: RetrySchedule, random: () => number = Math.random): number | null {
  const index = Math.max(failedAttempts, 1) - 1;
  const base = index < schedule.retryDelaysMs.length ? schedule.retryDelaysMs[index] : schedule.repeatDelayMs;
  const delay = Math.round(base * (1 + (random() * 2 - 1) * schedule.jitter));
  return elapsedMs + delay > schedule.giveUpAfterMs ? null : delay;
}
