/**
 * The card numbers tests use, from the provider's test bank as the sandbox implements it
 * (src/sandbox/cards/card-outcomes.ts): the number alone decides what happens to a binding, payment or payout.
 * A 3-D Secure card's binding waits for the payer at the ACS page (test/support/three-ds-payer.ts; SandboxClient.bindCard
 * passes it), and fails after the sandbox's threeDsTimeoutMs when nobody confirms.
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
  /** 3-D Secure: the binding waits for the payer to confirm at the ACS page (a form POST redirect), then succeeds. */
  threeDsSuccess: '4012888888881881',
  /** 3-D Secure like `threeDsSuccess`, with a plain GET redirect to the ACS page. */
  threeDsGetAcs: '4556418324571052',
  /** 3-D Secure: once the payer confirms, the check fails (preauthorization_failed, "3-D Secure Failure"). */
  threeDsFailure: '4987654321098769',
  /** 3-D Secure: the issuer never answers, even once the payer confirms; the binding fails when the wait ends. */
  threeDsTimeout: '5112000200000002',
  /** Binds, then declines every charge on it with authorization_failed:insufficient_funds (dunning without scripts). */
  renewalInsufficientFunds: '4000000000009995',
  /** Binds, then declines every charge on it with ...:bank_card_rejected:card_expired (the card expired after binding). */
  renewalExpiredCard: '4000000000009987',
  /** Binds and pays; every refund of a payment made with it fails (authorization_failed, "Refund rejected by the issuer"). */
  refundsFail: '4000000000009961',
  /** A valid Visa number that is not in the test bank: "Unsupported Card" for charges, a success for payouts. */
  notInTestBank: '4111111111111111',
  /** Fails the Luhn check: refused before any card operation. */
  badChecksum: '4242424242424241',
  /** A valid American Express number: a network the provider does not take. */
  unknownNetwork: '378282246310005',
} as const;

/** An expiry date far enough ahead for every test run (MM/YY). */
export const CARD_EXP_DATE = '12/39';
