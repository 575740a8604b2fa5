import { pairsRange, summarizePairs } from './paired-runs';

describe('summarizePairs', () => {
  const ratio = (pair: { ratio: number }) => pair.ratio;

  it('reports the pair of median ratio and the range of all, whatever their order', () => {
    const pairs = [{ ratio: 0.81, run: 1 }, { ratio: 0.62, run: 2 }, { ratio: 0.77, run: 3 }];
    expect(summarizePairs(pairs, ratio)).toEqual({ median: { ratio: 0.77, run: 3 }, lowest: 0.62, highest: 0.81, count: 3 });
  });

  it('of an even count, reports the lower of the two middle pairs', () => {
    const pairs = [0.9, 0.7, 0.8, 0.6].map((r) => ({ ratio: r }));
    expect(summarizePairs(pairs, ratio)).toEqual({ median: { ratio: 0.7 }, lowest: 0.6, highest: 0.9, count: 4 });
  });

  it('reports a single pair as it is, and refuses none', () => {
    expect(summarizePairs([{ ratio: 0.5 }], ratio)).toEqual({ median: { ratio: 0.5 }, lowest: 0.5, highest: 0.5, count: 1 });
    expect(() => summarizePairs([], ratio)).toThrow(RangeError);
  });

  it('describes the range after a figure of several pairs, and nothing after one', () => {
    expect(pairsRange(summarizePairs([0.77, 0.62, 0.81].map((r) => ({ ratio: r })), ratio))).toBe(' (median of 3 pairs, 0.62-0.81)');
    expect(pairsRange(summarizePairs([{ ratio: 0.5 }], ratio))).toBe('');
  });
});
