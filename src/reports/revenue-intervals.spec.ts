import fc from 'fast-check';
import { intervalBoundaries, MAX_INTERVALS, ReportInterval } from './revenue-intervals';

describe('revenue report intervals', () => {
  it('aligns to UTC days, ISO weeks and months', () => {
    const iso = (ds: Date[]) => ds.map((d) => d.toISOString().slice(0, 10));
    expect(iso(intervalBoundaries(new Date('2027-03-10T12:00:00Z'), new Date('2027-05-01T00:00:00Z'), 'month'))).toEqual(['2027-03-01', '2027-04-01', '2027-05-01']);
    expect(iso(intervalBoundaries(new Date('2027-03-10T00:00:00Z'), new Date('2027-03-16T00:00:00Z'), 'week'))).toEqual(['2027-03-08', '2027-03-15', '2027-03-22']);
    expect(iso(intervalBoundaries(new Date('2027-03-10T00:00:00Z'), new Date('2027-03-10T00:00:00Z'), 'day'))).toEqual(['2027-03-10', '2027-03-11']);
  });

  it('covers [from, to) with adjacent intervals', () => {
    const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 200 * 86_400_000 }), fc.constantFrom<ReportInterval>('day', 'week', 'month'), (from, span, interval) => {
        const b = intervalBoundaries(new Date(from), new Date(from + span), interval);
        expect(b[0].getTime()).toBeLessThanOrEqual(from);
        expect(b[b.length - 1].getTime()).toBeGreaterThanOrEqual(from + span);
        expect(b.length).toBeLessThanOrEqual(MAX_INTERVALS + 2);
        for (let i = 1; i < b.length; i++) expect(b[i].getTime()).toBeGreaterThan(b[i - 1].getTime());
      }),
      { numRuns: 200 },
    );
  });
});
