import type { PaymentError } from '../../gateway/provider-api.types';

/**
 * The provider's published test-bank table: the emulator decides an operation's
 * outcome by the card number alone. A group names one row of that table.
 */
export type CardGroup =
  | 'success'
  | 'threeDsSuccess'
  | 'threeDsSuccessGetAcs'
  | 'threeDsFailure'
  | 'threeDsTimeout'
  | 'insufficientFunds'
  | 'invalidCard'
  | 'cvvMatchFail'
  | 'expiredCard'
  | 'unknownFailure'
  | 'walletPayFailure'
  | 'renewalInsufficientFunds'
  | 'renewalExpiredCard'
  | 'renewalStolenCard'
  | 'refundFailure'
  | 'unsupported';

export interface CardGroupBehaviour {
  /** The test bank's name for the row; also the message of a failed binding. */
  label: string;
  /** Failure code path (top:sub:...) of bindings and payments, absent when they succeed. */
  failure?: string;
  /**
   * Failure code path of customer-payer charges once the card is bound, when it differs from `failure` (cards
   * that bind and then decline renewals, so dunning can be seen); absent when charges follow `failure`.
   */
  renewalFailure?: string;
  /** The error of every refund of a payment made with this card (`{code, message}`, as the provider shows it), absent when refunds succeed. */
  refundFailure?: { code: string; message: string };
  /** Failure code path of payouts to this card, absent when they succeed. */
  payoutFailure?: string;
  /** True for the test bank's 3-D Secure rows: a binding waits for the payer at the ACS page. */
  threeDs: boolean;
  /** The 3-D Secure redirect the test bank asks for. */
  acsRequest: 'BrowserPostRequest' | 'BrowserGetRequest';
  /** False when the issuer never answers the ACS page (a 3-D Secure timeout): the binding fails when the wait ends. */
  interactionCompletes: boolean;
}

const INSUFFICIENT_FUNDS = 'authorization_failed:insufficient_funds';
const ACCOUNT_NOT_FOUND = 'authorization_failed:account_not_found';
const CVV_INVALID = 'authorization_failed:payment_tool_rejected:bank_card_rejected:cvv_invalid';
const CARD_EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
const UNKNOWN = 'authorization_failed:unknown';
const ISSUER_NOT_FOUND = 'authorization_failed:payment_tool_rejected:bank_card_rejected:issuer_not_found';
const PREAUTH_FAILED = 'preauthorization_failed:unknown';
const ACCOUNT_STOLEN = 'authorization_failed:account_stolen';

/** Rows without 3-D Secure: the test bank answers on its own. */
const PLAIN = { threeDs: false, acsRequest: 'BrowserPostRequest', interactionCompletes: true } as const;
/** 3-D Secure rows: the payer confirms on the ACS page (or never does). */
const THREE_DS_POST = { threeDs: true, acsRequest: 'BrowserPostRequest', interactionCompletes: true } as const;

export const CARD_GROUPS: Readonly<Record<CardGroup, CardGroupBehaviour>> = {
  success: { label: 'Success', ...PLAIN },
  threeDsSuccess: { label: '3-D Secure Success', ...THREE_DS_POST },
  threeDsSuccessGetAcs: { label: '3-D Secure Success with GET ACS', ...THREE_DS_POST, acsRequest: 'BrowserGetRequest' },
  threeDsFailure: { label: '3-D Secure Failure', failure: PREAUTH_FAILED, ...THREE_DS_POST },
  threeDsTimeout: { label: '3-D Secure Timeout', failure: PREAUTH_FAILED, ...THREE_DS_POST, interactionCompletes: false },
  insufficientFunds: { label: 'Insufficient Funds', failure: INSUFFICIENT_FUNDS, payoutFailure: INSUFFICIENT_FUNDS, ...PLAIN },
  invalidCard: { label: 'Invalid Card', failure: ACCOUNT_NOT_FOUND, payoutFailure: ACCOUNT_NOT_FOUND, ...PLAIN },
  cvvMatchFail: { label: 'CVV Match Fail', failure: CVV_INVALID, ...PLAIN },
  expiredCard: { label: 'Expired Card', failure: CARD_EXPIRED, payoutFailure: CARD_EXPIRED, ...PLAIN },
  unknownFailure: { label: 'Unknown Failure', failure: UNKNOWN, payoutFailure: UNKNOWN, ...PLAIN },
  walletPayFailure: { label: 'Token Pay Failure', failure: UNKNOWN, ...PLAIN },
  // Not in the provider's table: the sandbox's own rows, so a bound card can go past due without scripting outcomes.
  renewalInsufficientFunds: { label: 'Binds, then Insufficient Funds', renewalFailure: INSUFFICIENT_FUNDS, ...PLAIN },
  renewalExpiredCard: { label: 'Binds, then Expired Card', renewalFailure: CARD_EXPIRED, ...PLAIN },
  renewalStolenCard: { label: 'Binds, then Stolen Card', renewalFailure: ACCOUNT_STOLEN, ...PLAIN },
  // The sandbox's own too: a card that pays, and whose every refund the bank then refuses.
  refundFailure: { label: 'Pays, then Refunds fail', refundFailure: { code: 'authorization_failed', message: 'Refund rejected by the issuer' }, ...PLAIN },
  unsupported: { label: 'Unsupported Card', failure: ISSUER_NOT_FOUND, ...PLAIN },
};

/** Test card numbers and their rows; any other number is an "Unsupported Card" for charges and a success for payouts. */
export const TEST_CARDS: Readonly<Record<string, CardGroup>> = {
  '4242424242424242': 'success',
  '5555555555554444': 'success',
  '586824160825533338': 'success',
  '2201382000000013': 'success',
  '9860099104199734': 'success',
  '4300000000000777': 'success',
  '2222990905257051': 'success',
  '2223577120017656': 'success',
  '4012888888881881': 'threeDsSuccess',
  '5169147129584558': 'threeDsSuccess',
  '4929172190150505': 'threeDsSuccess',
  '4556418324571052': 'threeDsSuccessGetAcs',
  '4556724110260093': 'threeDsSuccessGetAcs',
  '4987654321098769': 'threeDsFailure',
  '5123456789012346': 'threeDsFailure',
  '4342561111111118': 'threeDsTimeout',
  '5112000200000002': 'threeDsTimeout',
  '4000000000000002': 'insufficientFunds',
  '5100000000000412': 'insufficientFunds',
  '4222222222222220': 'invalidCard',
  '5100000000000511': 'invalidCard',
  '4003830171874018': 'cvvMatchFail',
  '5496198584584769': 'cvvMatchFail',
  '9860094242201120': 'cvvMatchFail',
  '4000000000000069': 'expiredCard',
  '5105105105105100': 'expiredCard',
  '4111110000000112': 'unknownFailure',
  '5124990000000002': 'unknownFailure',
  '5000000000000009': 'walletPayFailure',
  '2222405343248877': 'walletPayFailure',
  '2223007648726984': 'walletPayFailure',
  '4000000000009995': 'renewalInsufficientFunds',
  '5100000000009991': 'renewalInsufficientFunds',
  '4000000000009987': 'renewalExpiredCard',
  '5100000000009983': 'renewalExpiredCard',
  '4000000000009979': 'renewalStolenCard',
  '5100000000009975': 'renewalStolenCard',
  '4000000000009961': 'refundFailure',
  '5100000000009967': 'refundFailure',
};

/** What customer-payer charges on a bound card of this group end in: "success" or a failure code path. */
export function chargeOutcome(group: CardGroup): string {
  const behaviour = CARD_GROUPS[group];
  return behaviour.renewalFailure ?? behaviour.failure ?? 'success';
}

export function cardGroupOf(pan: string): CardGroup {
  return TEST_CARDS[pan] ?? 'unsupported';
}

const FAILURE_PATH = /^[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)*$/;

/** True for "success" or a failure code path such as "authorization_failed:insufficient_funds". */
export function isOutcome(value: string): boolean {
  return value === 'success' || FAILURE_PATH.test(value);
}

/** "a:b:c" → {code:"a", subError:{code:"b", subError:{code:"c"}}}: the merchant's view of a failure. */
export function failureTree(path: string): PaymentError {
  const codes = path.split(':');
  let tree: PaymentError = { code: codes[codes.length - 1] };
  for (let i = codes.length - 2; i >= 0; i--) tree = { code: codes[i], subError: tree };
  return tree;
}

/**
 * The single flat code a payer-side credential (an invoice access token) sees instead of the tree,
 * after CAPI's payment_error_client_maping.
 */
export function clientErrorCode(path: string): string {
  const [top, sub] = path.split(':');
  if (top === 'preauthorization_failed') return 'PreauthorizationFailed';
  if (top !== 'authorization_failed') return 'PaymentRejected';
  switch (sub) {
    case 'insufficient_funds':
      return 'InsufficientFunds';
    case 'account_not_found':
    case 'account_blocked':
    case 'account_stolen':
    case 'payment_tool_rejected':
      return 'InvalidPaymentTool';
    case 'account_limit_exceeded':
    case 'provider_limit_exceeded':
      return 'AccountLimitsExceeded';
    case 'rejected_by_issuer':
    case 'security_policy_violated':
      return 'RejectedByIssuer';
    default:
      return 'PaymentRejected';
  }
}

/** The inverse of failureTree: {code:"a", subError:{code:"b"}} → "a:b". */
export function failurePath(tree: PaymentError): string {
  const codes: string[] = [];
  for (let node: PaymentError | undefined = tree; node; node = node.subError) codes.push(node.code);
  return codes.join(':');
}
