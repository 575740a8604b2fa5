import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { ChargeAttemptHistory } from './charge-attempt-history';
import { attemptsOnCurrentCard, clampToAllowedHours, decideAfterDecline, defaultSmartRules, nextPaydayMorning, ruleFor } from './smart-dunning';
import { respectCap } from './attempt-cap';

const DAY = 86_400_000;
const rules = defaultSmartRules();
const ZONES = ['Europe/Moscow', 'Asia/Vladivostok', 'America/New_York', 'Europe/London', 'Pacific/Chatham', 'UTC'];
const CODES = [
  'authorization_failed:insufficient_funds',
  'authorization_failed:account_limit_exceeded:amount',
  'authorization_failed:rejected_by_issuer',
  'authorization_failed:unknown',
  'authorization_failed:temporarily_unavailable',
  'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired',
  'authorization_failed:account_stolen',
];
const zone = fc.constantFrom(...ZONES);
const instant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }).map((t) => new Date(t));

/** A charge's declined attempts in order, each some minutes to days after the previous. */
const history = fc
  .tuple(instant, fc.array(fc.tuple(fc.integer({ min: 60_000, max: 6 * DAY }), fc.constantFrom(...CODES)), { minLength: 1, maxLength: 20 }))
  .map(([start, steps]) => {
    let t = start.getTime();
    return steps.map(([gap, code]) => ({ attemptedAt: new Date((t += gap)), errorCode: code }) as ChargeAttemptHistory);
  });

const localHour = (t: Date, z: string) => DateTime.fromJSDate(t, { zone: z }).hour;

describe('smart dunning', () => {
  it.each([
    ['authorization_failed:insufficient_funds', 'insufficient_funds'],
    ['authorization_failed:account_limit_exceeded:amount', 'insufficient_funds'],
    ['authorization_failed:rejected_by_issuer', 'issuer_refusal'],
    ['authorization_failed:unknown', 'issuer_refusal'],
    ['authorization_failed:temporarily_unavailable', 'technical'],
    ['authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired', 'hard'],
    ['authorization_failed:security_policy_violated', 'hard'],
  ])('classifies %s as %s', (code, cls) => {
    expect(ruleFor(rules, code).class).toBe(cls);
  });

  it('retries insufficient funds on the morning after the next payday, local time', () => {
    const declined = new Date('2027-03-05T10:00:00+03:00');
    expect(nextPaydayMorning(rules, declined, 'Europe/Moscow').toISOString()).toBe('2027-03-15T06:00:00.000Z');
    // On the payday itself: the window's second day.
    expect(nextPaydayMorning(rules, new Date('2027-03-15T09:00:00+03:00'), 'Europe/Moscow').toISOString()).toBe('2027-03-16T06:00:00.000Z');
    // February has no 31st: a payday of 31 is paid on its last day.
    const end = defaultSmartRules([31]);
    expect(nextPaydayMorning(end, new Date('2027-02-20T12:00:00Z'), 'UTC').toISOString()).toBe('2027-02-28T09:00:00.000Z');
  });

  it('waits for a new card after a hard decline and after eight issuer refusals, spread front-loaded over the window', () => {
    const t = new Date('2027-01-10T10:00:00Z');
    const deadline = new Date(t.getTime() + 21 * DAY);
    const hard = decideAfterDecline(rules, [{ attemptedAt: t, errorCode: CODES[5] }], 'UTC', deadline);
    expect(hard.kind).toBe('await_card');
    const refusals: ChargeAttemptHistory[] = [{ attemptedAt: t, errorCode: 'authorization_failed:rejected_by_issuer' }];
    const retries: string[] = [];
    for (;;) {
      const decision = decideAfterDecline(rules, refusals, 'UTC', deadline);
      if (decision.kind !== 'retry') {
        expect(decision).toEqual({ kind: 'await_card', declineClass: 'hard' });
        break;
      }
      retries.push(decision.at.toISOString().slice(0, 13));
      refusals.push({ attemptedAt: decision.at, errorCode: 'authorization_failed:rejected_by_issuer' });
    }
    expect(retries).toEqual(['2027-01-11T09', '2027-01-13T09', '2027-01-15T09', '2027-01-18T09', '2027-01-21T09', '2027-01-25T09', '2027-01-29T09']);
  });

  it('asks for a new card once the next payday window lies past the end of dunning, and counts afresh on the new card', () => {
    const declined = { attemptedAt: new Date('2027-03-03T07:00:00Z'), errorCode: CODES[0] };
    const deadline = new Date(declined.attemptedAt.getTime() + 21 * DAY);
    const first = decideAfterDecline(rules, [declined], 'Europe/Moscow', deadline);
    expect(first).toEqual({ kind: 'retry', at: new Date('2027-03-15T06:00:00Z'), declineClass: 'insufficient_funds' });
    const payday = [declined, { attemptedAt: new Date('2027-03-15T06:00:00Z'), errorCode: CODES[0] }];
    expect(decideAfterDecline(rules, payday, 'Europe/Moscow', deadline)).toMatchObject({ kind: 'retry', at: new Date('2027-03-16T06:00:00Z') });
    const spent = [...payday, { attemptedAt: new Date('2027-03-16T06:00:00Z'), errorCode: CODES[0] }];
    // April 1st is past March 24th: wait for a card, not the final action.
    expect(decideAfterDecline(rules, spent, 'Europe/Moscow', deadline)).toEqual({ kind: 'await_card', declineClass: 'hard' });
    // With a longer window the next payday is still in reach.
    expect(decideAfterDecline(rules, spent, 'Europe/Moscow', new Date(deadline.getTime() + 10 * DAY))).toMatchObject({ kind: 'retry', at: new Date('2027-04-01T06:00:00Z') });
    const onNewCard = { attemptedAt: new Date('2027-03-20T06:00:00Z'), errorCode: 'authorization_failed:rejected_by_issuer' };
    expect(attemptsOnCurrentCard(rules, [...spent, onNewCard], 'Europe/Moscow', deadline)).toEqual([onNewCard]);
  });

  it('counts only the attempts on the card in use: those after the last wait for a new card', () => {
    const t = (d: number) => new Date(Date.UTC(2027, 0, 10 + d, 9));
    const refused = (d: number) => ({ attemptedAt: t(d), errorCode: 'authorization_failed:rejected_by_issuer' });
    const expired = (d: number) => ({ attemptedAt: t(d), errorCode: CODES[5] });
    expect(attemptsOnCurrentCard(rules, [expired(0)])).toEqual([expired(0)]);
    expect(attemptsOnCurrentCard(rules, [refused(0), expired(1), refused(2)])).toEqual([refused(2)]);
    // Eight refusals spend the budget: the ninth attempt is on a new card and starts a budget of its own.
    const onNewCard = attemptsOnCurrentCard(rules, [0, 1, 3, 5, 8, 11, 15, 19, 20].map(refused));
    expect(onNewCard).toEqual([refused(20)]);
    expect(decideAfterDecline(rules, onNewCard, 'UTC', t(30))).toMatchObject({ kind: 'retry', at: t(21) });
  });

  it('keeps technical failures on their own budget', () => {
    const t = new Date('2027-01-10T10:00:00Z');
    const technical = [0, 1, 2, 3, 4].map((h) => ({ attemptedAt: new Date(t.getTime() + h * 3_600_000), errorCode: CODES[4] }));
    const after = decideAfterDecline(rules, [...technical, { attemptedAt: new Date(t.getTime() + 5 * 3_600_000), errorCode: 'authorization_failed:rejected_by_issuer' }], 'UTC', new Date(t.getTime() + 21 * DAY));
    // The first issuer refusal: one day later, however many technical failures came before.
    expect(after).toEqual({ kind: 'retry', at: new Date('2027-01-11T09:00:00.000Z'), declineClass: 'issuer_refusal' });
  });

  it('puts every retry inside 08:00–21:00 local, after the decline and before the deadline, never for a hard decline', () => {
    fc.assert(
      fc.property(history, zone, fc.integer({ min: 1, max: 60 }), (attempts, z, maxDays) => {
        const deadline = new Date(attempts[0].attemptedAt.getTime() + maxDays * DAY);
        const decision = decideAfterDecline(rules, attempts, z, deadline);
        const last = attempts[attempts.length - 1];
        if (ruleFor(rules, last.errorCode as string).class === 'hard') expect(decision.kind).toBe('await_card');
        if (decision.kind !== 'retry') return;
        expect(decision.at.getTime()).toBeGreaterThan(last.attemptedAt.getTime());
        expect(decision.at.getTime()).toBeLessThanOrEqual(deadline.getTime());
        const hour = localHour(decision.at, z);
        expect(hour >= 8 && hour < 21).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('never lets a card exceed 15 attempts in any 30 days', () => {
    fc.assert(
      fc.property(history, zone, (attempts, z) => {
        const decision = decideAfterDecline(rules, attempts, z, new Date(attempts[0].attemptedAt.getTime() + 400 * DAY));
        if (decision.kind !== 'retry') return;
        const inWindow = attempts.filter((a) => a.attemptedAt.getTime() > decision.at.getTime() - 30 * DAY).length;
        expect(inWindow + 1).toBeLessThanOrEqual(15);
      }),
      { numRuns: 200 },
    );
  });

  it('clamps any instant into the allowed hours, never earlier and at most one night later', () => {
    fc.assert(
      fc.property(instant, zone, (t, z) => {
        const clamped = clampToAllowedHours(rules, t, z);
        expect(clamped.getTime()).toBeGreaterThanOrEqual(t.getTime());
        expect(clamped.getTime() - t.getTime()).toBeLessThanOrEqual(12 * 3_600_000);
        const hour = localHour(clamped, z);
        expect(hour >= 8 && hour < 21).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it('walks whole dunning chains in any zone, window and paydays within the hours, the cap and the payday windows', () => {
    const paydays = fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 3 });
    const codes = fc.array(fc.constantFrom(...CODES), { minLength: 20, maxLength: 20 });
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: 1, max: 60 }), paydays, codes, (start, z, maxDays, days, outcomes) => {
        const own = defaultSmartRules(days);
        const deadline = new Date(start.getTime() + maxDays * DAY);
        const chain: ChargeAttemptHistory[] = [{ attemptedAt: start, errorCode: outcomes[0] }];
        for (let k = 1; k < outcomes.length; k++) {
          const decision = decideAfterDecline(own, attemptsOnCurrentCard(own, chain, z, deadline), z, deadline);
          const last = chain[chain.length - 1];
          if (ruleFor(own, last.errorCode as string).class === 'insufficient_funds') expect(decision.kind).not.toBe('give_up');
          if (decision.kind !== 'retry') return;
          expect(decision.at.getTime()).toBeGreaterThan(last.attemptedAt.getTime());
          expect(decision.at.getTime()).toBeLessThanOrEqual(deadline.getTime());
          const local = DateTime.fromJSDate(decision.at, { zone: z });
          expect(local.hour >= 8 && local.hour < 21).toBe(true);
          const inWindow = chain.filter((a) => a.attemptedAt.getTime() > decision.at.getTime() - 30 * DAY).length;
          expect(inWindow + 1).toBeLessThanOrEqual(15);
          // Unless the cap held it back, an insufficient-funds retry is on a payday window's morning.
          const wished = nextPaydayMorning(own, last.attemptedAt, z);
          const capFree = respectCap(own.maxAttemptsPer30Days, chain.map((a) => a.attemptedAt), wished).getTime() === wished.getTime();
          if (decision.declineClass === 'insufficient_funds' && ruleFor(own, last.errorCode as string).class === 'insufficient_funds' && capFree) {
            expect(decision.at).toEqual(wished);
            // A payday past the month's end is paid on its last day; the window is that day and the next.
            const windowDays = days.flatMap((d) =>
              [local, local.minus({ days: 1 })].filter((day) => day.day === Math.min(d, day.daysInMonth as number)).map((day) => day.toISODate()),
            );
            expect(windowDays.length).toBeGreaterThan(0);
            expect(local.hour).toBe(own.morningHour);
          }
          chain.push({ attemptedAt: decision.at, errorCode: outcomes[k] });
        }
      }),
      { numRuns: 150 },
    );
  });
});
