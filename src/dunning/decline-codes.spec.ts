import { ATTEMPT_WINDOW_MS, respectCap } from './attempt-cap';
import { classifyDecline, isExpiredCardDecline } from './decline-codes';
import { FixedLadderPolicy } from './fixed-ladder.policy';


describe('decline codes, the fixed ladder and the cap', () => {
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
    ['authorization_failed:security_policy_violated', 'hard'],
  ])('classifies %s as %s', (code, kind) => {
    expect(classifyDecline(code)).toBe(kind);
  });

  it('tells an expired card from the other hard declines', () => {
    expect(isExpiredCardDecline('authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired')).toBe(true);
    expect(isExpiredCardDecline('authorization_failed:payment_tool_rejected:bank_card_rejected:cvv_invalid')).toBe(false);
    expect(isExpiredCardDecline('authorization_failed:card_expired_soon')).toBe(false);
  });

  it('counts each retry delay from the previous attempt, waits for a card after a hard decline, and ends with the ladder', () => {
    const fixed = new FixedLadderPolicy({ retryDelays: ['1d', '3d', '5d'], finalAction: 'cancel', attemptCap: 15, heldOut: false });
    const start = new Date('2027-01-01T00:00:00Z');
    const t = new Date('2027-01-10T00:00:00Z');
    const soft = (n: number) => Array.from({ length: n }, () => ({ attemptedAt: t, errorCode: 'authorization_failed:insufficient_funds' }));
    expect(fixed.afterDecline(soft(1), 'UTC', start)).toEqual({ kind: 'retry', at: new Date('2027-01-11T00:00:00Z') });
    expect(fixed.afterDecline(soft(2), 'UTC', start)).toEqual({ kind: 'retry', at: new Date('2027-01-13T00:00:00Z') });
    expect(fixed.afterDecline(soft(3), 'UTC', start)).toEqual({ kind: 'retry', at: new Date('2027-01-15T00:00:00Z') });
    expect(fixed.afterDecline(soft(4), 'UTC', start)).toEqual({ kind: 'give_up' });
    expect(fixed.deadline(t).toISOString()).toBe('2027-01-19T00:00:00.000Z');
    const hard = [{ attemptedAt: t, errorCode: 'authorization_failed:card_expired' }];
    expect(fixed.afterDecline(hard, 'UTC', start)).toEqual({ kind: 'await_card', until: new Date('2027-01-10T00:00:00Z') });
    const noLadder = new FixedLadderPolicy({ retryDelays: [], finalAction: 'unpaid', attemptCap: 15, heldOut: false });
    expect(noLadder.afterDecline(soft(1), 'UTC', start)).toEqual({ kind: 'give_up' });
  });

  it('never allows a 16th attempt within 30 days', () => {
    const start = Date.parse('2027-01-01T00:00:00Z');
    const attempts = Array.from({ length: 15 }, (_, i) => new Date(start + i * 3_600_000));
    const wanted = new Date(start + 15 * 3_600_000);
    const allowed = respectCap(15, attempts, wanted);
    expect(allowed.getTime()).toBeGreaterThan(start + ATTEMPT_WINDOW_MS);
    const inWindow = [...attempts, allowed].filter((t) => t.getTime() > allowed.getTime() - ATTEMPT_WINDOW_MS);
    expect(inWindow.length).toBeLessThanOrEqual(15);
    expect(respectCap(15, attempts.slice(0, 14), wanted)).toEqual(wanted);
  });
});
