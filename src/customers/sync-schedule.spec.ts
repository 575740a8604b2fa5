import { cardSummaryFrom, nextPollDelayMs } from './sync-schedule';

describe('nextPollDelayMs', () => {
  it('polls fast while the payer is likely at the form, then backs off, then stops after 30 days', () => {
    expect(nextPollDelayMs(0)).toBe(2_000);
    expect(nextPollDelayMs(59_999)).toBe(2_000);
    expect(nextPollDelayMs(60_000)).toBe(15_000);
    expect(nextPollDelayMs(3_600_000)).toBe(300_000);
    expect(nextPollDelayMs(86_400_000)).toBe(3_600_000);
    expect(nextPollDelayMs(30 * 86_400_000 - 1)).toBe(3_600_000);
    expect(nextPollDelayMs(30 * 86_400_000)).toBeNull();
  });

  it('treats a negative age (clock skew) as a fresh start', () => {
    expect(nextPollDelayMs(-5_000)).toBe(2_000);
  });
});

describe('cardSummaryFrom', () => {
  it('reads both spellings of the card details', () => {
    expect(cardSummaryFrom({ detailsType: 'PaymentToolDetailsBankCard', bin: '424242', lastDigits: '4242', paymentSystem: 'visa' })).toEqual({
      bin: '424242',
      lastDigits: '4242',
      paymentSystem: 'visa',
    });
    expect(cardSummaryFrom({ detailsType: 'PaymentToolDetailsBankCard', first6: '555555', last4: '4444', paymentSystem: 'mastercard' })).toEqual({
      bin: '555555',
      lastDigits: '4444',
      paymentSystem: 'mastercard',
    });
  });

  it('never keeps more than a bin and four last digits, even when handed a whole card number', () => {
    const summary = cardSummaryFrom({ detailsType: 'PaymentToolDetailsBankCard', bin: '4242424242424242', lastDigits: '4242424242424242' });
    expect(summary).toEqual({ bin: '424242', lastDigits: '4242', paymentSystem: null });
  });

  it('is null without details', () => {
    expect(cardSummaryFrom(undefined)).toBeNull();
    expect(cardSummaryFrom({ detailsType: 'PaymentToolDetailsBankCard' })).toBeNull();
  });
});
