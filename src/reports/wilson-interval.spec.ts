import { wilsonInterval } from './wilson-interval';

describe('the Wilson interval', () => {
  it('matches published values', () => {
    // Wilson (1927), as tabulated by Newcombe (1998): 81 of 263 → 0.2553 – 0.3662.
    expect(wilsonInterval(81, 263)).toEqual({ low: 0.2553, high: 0.3662 });
    // 0 of 10 is not "exactly 0": the upper bound is 0.2775.
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: 0.2775 });
    expect(wilsonInterval(10, 10)).toEqual({ low: 0.7225, high: 1 });
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('always holds the observed rate and narrows as trials grow', () => {
    for (const trials of [1, 7, 50, 400, 5000]) {
      for (const successes of [0, Math.floor(trials / 3), trials]) {
        const interval = wilsonInterval(successes, trials);
        if (!interval) throw new Error('an interval');
        const rate = successes / trials;
        expect(interval.low).toBeLessThanOrEqual(rate + 1e-4);
        expect(interval.high).toBeGreaterThanOrEqual(rate - 1e-4);
      }
    }
    const width = (n: number) => {
      const i = wilsonInterval(n / 2, n);
      return i ? i.high - i.low : 1;
    };
    expect(width(100)).toBeLessThan(width(10));
    expect(width(10_000)).toBeLessThan(width(100));
  });
});
