import type { IntervalHistogram } from 'node:perf_hooks';
import { LoopLag } from './loop-lag';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: nothing else runs on this thread meanwhile.
  }
}

describe('LoopLag', () => {
  it('reports a block of the event loop as lag (a lower bound only: a busy machine adds to it)', async () => {
    const lag = new LoopLag();
    lag.start();
    await sleep(30);
    blockFor(80);
    await sleep(30);
    const spent = lag.read();
    expect(spent.maxMs).toBeGreaterThanOrEqual(60);
    expect(spent.p99Ms).toBeGreaterThanOrEqual(60);
    expect(spent.meanMs).toBeGreaterThan(0);
    expect(spent.meanMs).toBeLessThanOrEqual(spent.maxMs);
  });

  it('counts only lateness, not the sampling interval the histogram includes', () => {
    // Ticks 10 ms apart by design: intervals of 10, 12 and 38 ms are lateness of 0, 2 and 28.
    const ms = 1e6;
    const histogram = { enable: () => true, disable: () => true, count: 3, mean: 20 * ms, max: 38 * ms, percentile: () => 38 * ms };
    const lag = new LoopLag(() => histogram as unknown as IntervalHistogram);
    lag.start();
    expect(lag.read()).toEqual({ meanMs: 20 - LoopLag.RESOLUTION_MS, p99Ms: 28, maxMs: 28 });
  });

  it('answers zeros for a span too short to sample, not NaN', () => {
    const lag = new LoopLag();
    lag.start();
    expect(lag.read()).toEqual({ meanMs: 0, p99Ms: 0, maxMs: 0 });
  });

  it('refuses a read before a start', () => {
    expect(() => new LoopLag().read()).toThrow('before start');
  });
});
