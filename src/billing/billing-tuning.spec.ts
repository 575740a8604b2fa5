import { chargeWorkersFor } from './billing-tuning';

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
