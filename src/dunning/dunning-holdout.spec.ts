import { createHash } from 'node:crypto';
import { inHoldout } from './dunning-holdout';

describe('the dunning holdout', () => {
  // Fixed ids (UUID-shaped hashes of 0..19,999): random ones made this test fail about once in 250 runs.
  const ids = Array.from({ length: 20_000 }, (_, i) => {
    const hex = createHash('sha256').update(`subscription ${i}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  });

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
