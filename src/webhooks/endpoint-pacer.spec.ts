import { EndpointPacer } from './endpoint-pacer';

describe('EndpointPacer', () => {
  const pacer = () => new EndpointPacer({ perEndpoint: 2, initialLatencyMs: 300, maxDeferMs: 5_000 });

  it('lets each endpoint have only so many deliveries in flight, and frees a slot on release', () => {
    const p = pacer();
    expect([p.tryAcquire('a'), p.tryAcquire('a'), p.tryAcquire('a')]).toEqual([true, true, false]);
    expect(p.tryAcquire('b')).toBe(true);
    p.release('a', 300, 0);
    expect(p.tryAcquire('a')).toBe(true);
  });

  it('hands the waiting deliveries of a full endpoint slots one after another, at its pace', () => {
    const p = pacer();
    p.tryAcquire('a');
    p.tryAcquire('a');
    // 300 ms per answer, two slots: one slot frees about every 150 ms.
    expect([1, 2, 3, 4].map(() => p.deferralMs('a', 1_000))).toEqual([150, 300, 450, 600]);
    // Another endpoint is not paced by it.
    p.tryAcquire('b');
    p.tryAcquire('b');
    expect(p.deferralMs('b', 1_000)).toBe(150);
  });

  it('learns the answer time and never defers beyond the cap', () => {
    const p = pacer();
    for (let i = 0; i < 40; i++) {
      p.tryAcquire('slow');
      p.release('slow', 10_000, 0);
    }
    p.tryAcquire('slow');
    p.tryAcquire('slow');
    expect(p.deferralMs('slow', 0)).toBeGreaterThan(4_000);
    expect(p.deferralMs('slow', 0)).toBe(5_000);
  });
});
