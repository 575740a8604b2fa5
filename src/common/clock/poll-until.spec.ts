import { Clock } from './clock';
import { pollUntil } from './poll-until';

/** A clock that moves `stepMs` each time it is read, so deadlines pass without waiting for them. */
function steppingClock(stepMs: number): Clock {
  let at = 0;
  return { now: () => new Date((at += stepMs)) } as Clock;
}

describe('pollUntil', () => {
  it('stops at the first read that answers true', async () => {
    let reads = 0;
    await pollUntil(async () => ++reads === 3, { clock: steppingClock(0), forMs: 1_000, firstMs: 1, capMs: 2 });
    expect(reads).toBe(3);
  });

  it('gives up once its time on the clock has passed, however the reads answer', async () => {
    let reads = 0;
    // Each turn reads the clock once: the deadline, 10 steps away, passes after 9 reads.
    await pollUntil(async () => (reads++, false), { clock: steppingClock(100), forMs: 1_000, firstMs: 1, capMs: 1 });
    expect(reads).toBe(9);
  });
});
