import fc from 'fast-check';
import { backoffDelayMs } from './backoff';

describe('backoffDelayMs', () => {
  it('starts at a few seconds, doubles, and stays under its cap', () => {
    expect(backoffDelayMs(1, 2_000, 600_000, () => 1)).toBe(2_000);
    expect(backoffDelayMs(1, 2_000, 600_000, () => 0)).toBe(1_000);
    expect(backoffDelayMs(2, 2_000, 600_000, () => 1)).toBe(4_000);
    expect(backoffDelayMs(50, 2_000, 600_000, () => 1)).toBe(600_000);
  });

  it('is always between half and all of the capped exponential delay', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 1, max: 3_600_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (failures, base, cap, r) => {
        const ceiling = Math.min(cap, base * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
        const delay = backoffDelayMs(failures, base, cap, () => r);
        return delay >= Math.floor(ceiling / 2) && delay <= Math.ceil(ceiling);
      }),
    );
  });
});
