import { TEST_CARDS } from '../sandbox/cards/card-outcomes';
import { isCardCvv, isCardExpiry, isCardNumber, isExpired } from './card-checks';

describe('card checks', () => {
  it.each(Object.keys(TEST_CARDS))('accepts the provider test card %s', (pan) => {
    expect(isCardNumber(pan)).toBe(true);
  });

  it.each([
    ['the 18-digit Maestro', '586824160825533338'],
    ['MIR', '2201382000000013'],
    ['HUMO', '9860099104199734'],
  ])('accepts %s', (_label, pan) => {
    expect(isCardNumber(pan)).toBe(true);
  });

  it.each([
    ['a failed checksum', '4242424242424241'],
    ['a failed checksum on HUMO', '9860099104199735'],
    ['11 digits', '42424242424'],
    ['20 digits', '42424242424242424242'],
    ['a Mastercard of 19 digits', '5555555555554444000'],
    ['spaces', '4242 4242 4242 4242'],
    ['dashes', '4242-4242-4242-4242'],
    ['letters', '4242abcd42424242'],
    ['a number no payment system issues', '1000000000000008'],
    ['a number given as a number', 4242424242424242],
  ])('refuses %s', (_label, pan) => {
    expect(isCardNumber(pan)).toBe(false);
  });

  it('takes an expiry as MM/YY with a month 01..12', () => {
    for (const good of ['01/30', '12/30', '06/99']) expect(isCardExpiry(good)).toBe(true);
    for (const bad of ['00/30', '13/30', '1/30', '01/2030', '2030-01', '0130', 130]) expect(isCardExpiry(bad)).toBe(false);
  });

  it('takes a CVV of 3 or 4 digits', () => {
    for (const good of ['123', '9731']) expect(isCardCvv(good)).toBe(true);
    for (const bad of ['12', '12345', '12a', '', 123]) expect(isCardCvv(bad)).toBe(false);
  });

  it('treats a card as valid through the end of its expiry month', () => {
    const now = new Date('2027-03-31T23:59:59Z');
    expect(isExpired('03/27', now)).toBe(false);
    expect(isExpired('02/27', now)).toBe(true);
    expect(isExpired('12/26', now)).toBe(true);
    expect(isExpired('01/28', now)).toBe(false);
    expect(isExpired('13/28', now)).toBe(true);
  });
});
