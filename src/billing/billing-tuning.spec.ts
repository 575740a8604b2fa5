import { chargeWorkersFor, materializeBatchLimit } from './billing-tuning';

describe('chargeWorkersFor', () => {
  it('keeps a quarter more charges in progress than provider slots, so a slot is not idle while a worker writes', () => {
    expect(chargeWorkersFor(16)).toBe(20);
    expect(chargeWorkersFor(128)).toBe(160);
  });

  it('adds none below four slots: a pass of one slot works its charges one at a time', () => {
    expect([1, 2, 3].map(chargeWorkersFor)).toEqual([1, 2, 3]);
    expect(chargeWorkersFor(4)).toBe(5);
  });
});

describe('materializeBatchLimit', () => {
  it("starts a pass with a small batch, so its first charges go out early, and doubles up to the configured size", () => {
    expect([0, 1, 2, 3, 4, 5].map((round) => materializeBatchLimit(round, 200))).toEqual([25, 50, 100, 200, 200, 200]);
  });

  it('never exceeds a size smaller than the first batch, and takes at least one', () => {
    expect(materializeBatchLimit(0, 10)).toBe(10);
    expect(materializeBatchLimit(999, 10)).toBe(10);
    expect(materializeBatchLimit(0, 0)).toBe(1);
  });
});
