import { randomUUID } from 'node:crypto';
import { inHoldout } from './dunning-holdout';

describe('the dunning holdout', () => {
  const ids = Array.from({ length: 20_000 }, () => randomUUID());

  it('keeps no one out at 0 % and about the asked share otherwise', () => {
    expect(ids.some((id) => inHoldout(id, 0))).toBe(false);
    for (const percent of [5, 20, 50]) {
      const share = ids.filter((id) => inHoldout(id, percent)).length / ids.length;
      // 20,000 draws: three standard deviations of a binomial share are under 1.1 points.
      expect(Math.abs(share - percent / 100)).toBeLessThan(0.011);
    }
  });

  it('puts a subscription in the same group every time, and a larger holdout contains a smaller one', () => {
    for (const id of ids.slice(0, 500)) {
      expect(inHoldout(id, 20)).toBe(inHoldout(id, 20));
      if (inHoldout(id, 10)) expect(inHoldout(id, 20)).toBe(true);
    }
  });
});
