import { failureCodePath } from './failure-code';

describe('failureCodePath', () => {
  it('joins a nested payment error from the most general code to the most specific', () => {
    expect(
      failureCodePath({
        code: 'authorization_failed',
        subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } },
      }),
    ).toBe('authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired');
  });

  it('reads a one-level withdrawal failure', () => {
    expect(failureCodePath({ code: 'authorization_failed', subError: { code: 'insufficient_funds' } })).toBe('authorization_failed:insufficient_funds');
  });

  it('takes the code of a flat {code, message} error and ignores the message', () => {
    expect(failureCodePath({ code: 'InsufficientFunds', message: 'Insufficient Funds' })).toBe('InsufficientFunds');
  });

  it('calls a missing failure "unknown", so a failed payment always has a code to store', () => {
    expect(failureCodePath(undefined)).toBe('unknown');
    expect(failureCodePath({ code: '' })).toBe('unknown');
  });

  it('stops at a sub-error without a usable code instead of adding an empty segment', () => {
    const malformed = { code: 'authorization_failed', subError: { code: 42 } } as unknown as Parameters<typeof failureCodePath>[0];
    expect(failureCodePath(malformed)).toBe('authorization_failed');
  });

  it('terminates on a cyclic error object', () => {
    const cyclic: { code: string; subError?: unknown } = { code: 'timeout' };
    cyclic.subError = cyclic;
    expect(failureCodePath(cyclic as Parameters<typeof failureCodePath>[0]).split(':').length).toBeLessThanOrEqual(16);
  });
});
