import fc from 'fast-check';
import { ZONES } from '../../test/support/billing-calendar-oracle';
import { BillingInterval, periodEnd } from '../common/calendar/billing-calendar';
import { amountOf, balanceEntriesOf, PriceSide, quoteChange } from './change-quote';
import { applyBalance, prorate, prorateAmount } from './proration';

const RUNS = 400;
const INTERVALS: BillingInterval[] = ['day', 'week', 'month', 'year'];
const FROM = Date.UTC(2000, 0, 1);
const TO = Date.UTC(2090, 0, 1);

const sideArb = (interval?: BillingInterval): fc.Arbitrary<PriceSide> =>
  fc.record({
    planId: fc.constantFrom('a', 'b'),
    planAmount: fc.integer({ min: 0, max: 10_000_000 }),
    interval: interval ? fc.constant(interval) : fc.constantFrom(...INTERVALS),
    intervalCount: fc.integer({ min: 1, max: 3 }),
    quantity: fc.integer({ min: 1, max: 10_000 }),
  });

/** A period of `side`'s plan in some zone, and an instant within it. */
const periodArb = fc
  .record({ zone: fc.constantFrom(...ZONES), startMs: fc.integer({ min: FROM, max: TO }), current: sideArb(), fraction: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
  .map(({ zone, startMs, current, fraction }) => {
    const start = new Date(startMs);
    const end = periodEnd(start, zone, current.interval, current.intervalCount, 0);
    const now = new Date(start.getTime() + Math.floor((end.getTime() - start.getTime()) * fraction));
    return { zone, start, end, now, current };
  });

type QuoteCase = typeof quoteArb extends fc.Arbitrary<infer T> ? T : never;

const quoteArb = fc.record({
  period: periodArb,
  next: sideArb(),
  sameInterval: fc.boolean(),
  paid: fc.boolean(),
  trial: fc.boolean(),
  effective: fc.constantFrom(undefined, 'now' as const, 'period_end' as const),
  prorate: fc.constantFrom(undefined, true, false),
  balance: fc.integer({ min: 0, max: 100_000_000 }),
});

function quoteOf(c: QuoteCase) {
  const { period, paid, trial, effective, balance } = c;
  const next = c.sameInterval ? { ...c.next, interval: period.current.interval, intervalCount: period.current.intervalCount } : c.next;
  return quoteChange({
    now: period.now,
    timezone: period.zone,
    status: trial ? 'trialing' : 'active',
    periodStart: period.start,
    periodEnd: period.end,
    paid: paid && !trial,
    current: period.current,
    next,
    effective,
    prorate: c.prorate,
    balance,
  });
}

describe('proration: properties', () => {
  it('rounds half away from zero, exactly: |2·(q·D − a·d)| ≤ D, and a tie goes away from zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 1096 }), fc.integer({ min: 1, max: 1096 }), (a, d, D) => {
        const q = BigInt(prorateAmount(a, d, D));
        const diff = 2n * (q * BigInt(D) - BigInt(a) * BigInt(d));
        expect(diff <= BigInt(D) && diff >= -BigInt(D)).toBe(true);
        if (diff === BigInt(D)) expect(a * d > 0).toBe(true);
        if (diff === -BigInt(D)) expect(a * d < 0).toBe(true);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('credit never exceeds what was paid for the period, and an unpaid period earns none', () => {
    fc.assert(
      fc.property(periodArb, fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 1e12 }), fc.boolean(), ({ zone, start, end, now }, oldAmount, newAmount, paid) => {
        const p = prorate({ timezone: zone, periodStart: start, periodEnd: end, changeAt: now, oldAmount, newAmount, paid });
        expect(p.remainingDays).toBeGreaterThanOrEqual(0);
        expect(p.remainingDays).toBeLessThanOrEqual(p.totalDays);
        expect(p.credit).toBeLessThanOrEqual(paid ? oldAmount : 0);
        expect(p.credit).toBeGreaterThanOrEqual(0);
        expect(p.net).toBe(p.cost - p.credit);
        // An upgrade never credits: rounding is monotone.
        if (newAmount >= oldAmount) expect(p.net).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('the change day counts as remaining: a change on the first day of a period leaves every day of it', () => {
    fc.assert(
      fc.property(periodArb, ({ zone, start, end }) => {
        const p = prorate({ timezone: zone, periodStart: start, periodEnd: end, changeAt: start, oldAmount: 1, newAmount: 1, paid: true });
        expect(p.remainingDays).toBe(p.totalDays);
      }),
      { numRuns: RUNS },
    );
  });

  it('what the preview answers is what applying it books: balanceAfter = balance + its ledger entries, provider asked for the rest', () => {
    fc.assert(
      fc.property(quoteArb, (c) => {
        const quote = quoteOf(c);
        const again = quoteOf(c);
        expect(again).toEqual(quote);
        const booked = balanceEntriesOf(quote).reduce((sum, e) => sum + e.amount, c.balance);
        expect(quote.balanceAfter).toBe(booked);
        expect(quote.balanceAfter).toBeGreaterThanOrEqual(0);
        expect(quote.appliedFromBalance).toBeLessThanOrEqual(quote.chargeAmount);
        expect(quote.chargeAmount > 0 && quote.creditAdded > 0).toBe(false);
        if (quote.effective === 'period_end' || c.trial || c.prorate === false) {
          expect([quote.credit, quote.cost, quote.net]).toEqual([0, 0, 0]);
        }
        if (quote.effective === 'period_end') expect(quote.chargeAmount).toBe(0);
        expect(quote.nextChargeAmount).toBe(amountOf(c.next));
      }),
      { numRuns: RUNS },
    );
  });

  it('the credit balance never goes below zero, whatever sequence of changes and charges meets it', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('charge' as const), amount: fc.integer({ min: 0, max: 1_000_000 }) }),
      fc.record({ kind: fc.constant('change' as const), quote: quoteArb }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const ledger: number[] = [];
        const sum = () => ledger.reduce((a, b) => a + b, 0);
        for (const s of steps) {
          if (s.kind === 'charge') {
            const { applied, remaining } = applyBalance(sum(), s.amount);
            if (applied > 0) ledger.push(-applied);
            expect(applied + remaining).toBe(s.amount);
          } else {
            const quote = quoteOf({ ...s.quote, balance: sum() });
            for (const e of balanceEntriesOf(quote)) ledger.push(e.amount);
            expect(sum()).toBe(quote.balanceAfter);
          }
          expect(sum()).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: RUNS / 2 },
    );
  });
});
