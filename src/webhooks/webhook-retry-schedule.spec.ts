import fc from 'fast-check';
import { webhookRetryDelayMs } from './webhook-retry-schedule';
import { WebhookTuning } from './webhook-tuning';

const schedule = new WebhookTuning();
const S = 1_000;
const M = 60 * S;
const H = 60 * M;

/** Walks the schedule from the first failure, each wait as `random` makes it; answers the waits. */
function walk(random: () => number): number[] {
  const waits: number[] = [];
  let elapsed = 0;
  for (let failed = 1; ; failed++) {
    const delay = webhookRetryDelayMs(failed, elapsed, schedule, random);
    if (delay === null) return waits;
    waits.push(delay);
    elapsed += delay;
  }
}

describe('webhookRetryDelayMs', () => {
  it('follows 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, then every 6 h', () => {
    expect(walk(() => 0.5).slice(0, 10)).toEqual([5 * S, 30 * S, 2 * M, 10 * M, 30 * M, H, 3 * H, 6 * H, 6 * H, 6 * H]);
  });

  it('keeps retrying for three days and then gives up', () => {
    const waits = walk(() => 0.5);
    const total = waits.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(72 * H);
    expect(total + 6 * H).toBeGreaterThan(72 * H);
    // 7 ladder steps and 11 six-hour waits fit in the 72 hours.
    expect(waits).toHaveLength(18);
    expect(webhookRetryDelayMs(30, 72 * H, schedule, () => 0.5)).toBeNull();
  });

  it('moves every wait by at most 10 % either way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), (failed, r) => {
        const base = failed <= schedule.retryDelaysMs.length ? schedule.retryDelaysMs[failed - 1] : schedule.repeatDelayMs;
        const delay = webhookRetryDelayMs(failed, 0, schedule, () => r);
        return delay !== null && delay >= Math.floor(base * 0.9) && delay <= Math.ceil(base * 1.1);
      }),
    );
  });

  it('spreads deliveries that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => webhookRetryDelayMs(3, 0, schedule)));
    expect(delays.size).toBeGreaterThan(10);
  });

  it('follows a shortened schedule as given (tests)', () => {
    const short = new WebhookTuning({ retryDelaysMs: [100, 200], repeatDelayMs: 500, giveUpAfterMs: 2_000, jitter: 0 });
    expect(webhookRetryDelayMs(1, 0, short)).toBe(100);
    expect(webhookRetryDelayMs(2, 100, short)).toBe(200);
    expect(webhookRetryDelayMs(3, 300, short)).toBe(500);
    expect(webhookRetryDelayMs(9, 1_600, short)).toBeNull();
  });
});
