import { ATTEMPT_WINDOW_MS, classifyDecline, dunningDeadline, nextRetryAt, respectAttemptCap } from './dunning-policy';

const DAY = 86_400_000;

describe('dunning policy', () => {
  it.each([
    ['authorization_failed:insufficient_funds', 'soft'],
    ['authorization_failed:account_limit_exceeded:amount', 'soft'],
    ['authorization_failed:temporarily_unavailable', 'soft'],
    ['authorization_failed:unknown', 'soft'],
    ['timeout', 'soft'],
    ['preauthorization_failed:unknown', 'soft'],
    ['authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired', 'hard'],
    ['authorization_failed:payment_tool_rejected:bank_card_rejected:cvv_invalid', 'hard'],
    ['authorization_failed:payment_tool_rejected:bank_card_rejected:issuer_not_found', 'hard'],
    ['authorization_failed:account_not_found', 'hard'],
    ['authorization_failed:account_stolen', 'hard'],
    ['authorization_failed:account_blocked', 'hard'],
  ])('classifies %s as %s', (code, kind) => {
    expect(classifyDecline(code)).toBe(kind);
  });

  it('counts each retry delay from the previous attempt and ends with the ladder', () => {
    const ladder = [1, 3, 5].map((d) => d * DAY);
    const t = new Date('2027-01-10T00:00:00Z');
    expect(nextRetryAt(ladder, 1, t)?.toISOString()).toBe('2027-01-11T00:00:00.000Z');
    expect(nextRetryAt(ladder, 2, t)?.toISOString()).toBe('2027-01-13T00:00:00.000Z');
    expect(nextRetryAt(ladder, 3, t)?.toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(nextRetryAt(ladder, 4, t)).toBeNull();
    expect(nextRetryAt([], 1, t)).toBeNull();
    expect(dunningDeadline(ladder, t).toISOString()).toBe('2027-01-19T00:00:00.000Z');
  });

  it('never allows a 16th attempt within 30 days', () => {
    const start = Date.parse('2027-01-01T00:00:00Z');
    const attempts = Array.from({ length: 15 }, (_, i) => new Date(start + i * 3_600_000));
    const wanted = new Date(start + 15 * 3_600_000);
    const allowed = respectAttemptCap(attempts, wanted);
    expect(allowed.getTime()).toBeGreaterThan(start + ATTEMPT_WINDOW_MS);
    const inWindow = [...attempts, allowed].filter((t) => t.getTime() > allowed.getTime() - ATTEMPT_WINDOW_MS);
    expect(inWindow.length).toBeLessThanOrEqual(15);
    expect(respectAttemptCap(attempts.slice(0, 14), wanted)).toEqual(wanted);
  });
});
