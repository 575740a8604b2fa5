import { AreaOverTime } from './area-over-time';

/** Adds a step function: `steps` alternates a time and the level from that time on, until `to`. */
function held(area: AreaOverTime, steps: number[], to: number): AreaOverTime {
  for (let k = 0; k < steps.length; k += 2) area.add(steps[k + 1], steps[k], k + 2 < steps.length ? steps[k + 2] : to);
  return area;
}

describe('AreaOverTime', () => {
  it('averages a level over each tenth of a run, so a slow start or a gap shows where it was', () => {
    // From 0 to 100 ms: nothing for the first 15 ms, then 128 until 90, then 64 until the end.
    const area = held(new AreaOverTime(0), [0, 0, 15, 128, 90, 64], 100);
    expect(area.averageByTenth(100)).toEqual([0, 64, 128, 128, 128, 128, 128, 128, 128, 64]);
    expect(area.average(100)).toBeCloseTo((128 * 75 + 64 * 10) / 100, 9);
    // A level held from before the run's start counts from the start only; a span of nothing has no average.
    expect(held(new AreaOverTime(0), [-50, 10], 10).averageByTenth(10)).toEqual(new Array(10).fill(10));
    expect(held(new AreaOverTime(10), [0, 5], 10).averageByTenth(10)).toEqual(new Array(10).fill(0));
    // Times that do not fall on a tenth exactly (as performance.now() gives them): every moment is counted once.
    const uneven = held(new AreaOverTime(0.1), [0.1, 3, 0.7000000000000001, 5], 1.1).averageByTenth(1.1);
    expect(uneven.reduce((sum, average) => sum + average * 0.1, 0)).toBeCloseTo(3 * 0.6 + 5 * 0.4, 9);
  });

  it('keeps its memory bounded over a long run, the average exact and the tenths within a bucket', () => {
    // An hour, in 10-ms steps alternating 0 and 100 for the first half and a steady 40 after: far more than 100 buckets.
    const area = new AreaOverTime(0, 100);
    for (let t = 0; t < 1_800_000; t += 10) area.add(t % 20 === 0 ? 100 : 0, t, t + 10);
    area.add(40, 1_800_000, 3_600_000);
    expect(area.average(3_600_000)).toBeCloseTo((50 * 1_800_000 + 40 * 1_800_000) / 3_600_000, 6);
    // The buckets end up 65,536 ms wide: a tenth (360,000 ms) that shares one with its neighbour is off by at most
    // that share of the difference between them.
    const tenths = area.averageByTenth(3_600_000);
    for (const first of tenths.slice(0, 5)) expect(Math.abs(first - 50)).toBeLessThan((65_536 / 360_000) * 10);
    for (const second of tenths.slice(5)) expect(Math.abs(second - 40)).toBeLessThan((65_536 / 360_000) * 10);
    expect((area as unknown as { buckets: number[] }).buckets.length).toBeLessThanOrEqual(100);
  });
});
