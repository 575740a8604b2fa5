/**
 * The card numbers tests use, from the provider's test bank as the sandbox implements it
 * (src/sandbox/cards/card-outcomes.ts): the number alone decides what happens to a binding, payment or payout.
 * Tests that walk the bank's table row by row keep their literals: there the number itself is the subject.
 */
export const CARDS = {
  /** Visa: bindings, payments and payouts succeed. */
  success: '4242424242424242',
  /** Mastercard ending 4444: succeeds too; a second good card, told apart from `success` by its last digits. */
  secondSuccess: '5555555555554444',
  /** Mir: succeeds. */
  mirSuccess: '2201382000000013',
  /** Declined: authorization_failed:insufficient_funds (a soft decline). */
  insufficientFunds: '4000000000000002',
  /** Declined: authorization_failed:account_not_found. */
  invalid: '4222222222222220',
  /** Declined: ...:bank_card_rejected:card_expired, whatever expiry date is sent. */
  expired: '4000000000000069',
  /** Declined: authorization_failed:unknown. */
  unknownFailure: '4111110000000112',
  /** The 3-D Secure check fails: preauthorization_failed. */
  threeDsFailure: '4987654321098769',
  /** A valid Visa number that is not in the test bank: "Unsupported Card" for charges, a success for payouts. */
  notInTestBank: '4111111111111111',
  /** Fails the Luhn check: refused before any card operation. */
  badChecksum: '4242424242424241',
  /** A valid American Express number: a network the provider does not take. */
  unknownNetwork: '378282246310005',
} as const;

/** An expiry date far enough ahead for every test run (MM/YY). */
export const CARD_EXP_DATE = '12/39';
