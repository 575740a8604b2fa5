import { isCardNumber, isExpired, passesLuhn } from './card-checks';

describe('card checks', () => {
  it.each(['4242424242424242', '5555555555554444', '4000000000000002', '4222222222222220', '4000000000000069', '4111110000000112', '586824160825533338'])(
    'accepts the test card %s',
    (pan) => {
      expect(isCardNumber(pan)).toBe(true);
    },
  );

  it.each([
    ['a failed checksum', '4242424242424241'],
    ['11 digits', '42424242424'],
    ['20 digits', '42424242424242424242'],
    ['spaces', '4242 4242 4242 4242'],
    ['letters', '4242abcd42424242'],
  ])('refuses %s', (_label, pan) => {
    expect(isCardNumber(pan)).toBe(false);
  });

  it('computes the Luhn checksum', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
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
