import { isExpired, luhnValid, maskCardNumber, parseExpDate, paymentSystemOf } from '../../src/sandbox/cards/card-checks';
import { CARD_GROUPS, cardGroupOf, clientErrorCode, failurePath, failureTree, isOutcome, TEST_CARDS } from '../../src/sandbox/cards/card-outcomes';
import { SchemaViolation } from '../../src/sandbox/http/schema-violation';
import { canonicalJson } from '../../src/sandbox/services/idempotency.service';
import { pageAfter } from '../../src/sandbox/state/event-paging';

describe('sandbox card rules', () => {
  it('every test card of the provider table passes the tokenizer checks (Luhn and a known network)', () => {
    for (const pan of Object.keys(TEST_CARDS)) {
      expect({ pan, luhn: luhnValid(pan) }).toEqual({ pan, luhn: true });
      expect(paymentSystemOf(pan)).toBeDefined();
    }
  });

  it('rejects a card number whose checksum is wrong', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242424242424242')).toBe(true);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223577120017656', 'mastercard'],
    ['2201382000000013', 'mir'],
    ['586824160825533338', 'maestro'],
    ['5000000000000009', 'maestro'],
    ['9860099104199734', 'humo'],
    ['378282246310005', undefined],
  ])('names the network of %s as %s', (pan, system) => {
    expect(paymentSystemOf(pan)).toBe(system);
  });

  it('parses MM/YY and MM/YYYY and treats a card as valid through its expiry month', () => {
    expect(parseExpDate('07/29')).toEqual({ month: 7, year: 2029 });
    expect(parseExpDate('07/2029')).toEqual({ month: 7, year: 2029 });
    expect(parseExpDate('13/29')).toBeUndefined();
    expect(parseExpDate('7/29')).toBeUndefined();
    const now = new Date('2030-05-31T23:00:00Z');
    expect(isExpired({ month: 5, year: 2030 }, now)).toBe(false);
    expect(isExpired({ month: 4, year: 2030 }, now)).toBe(true);
    expect(isExpired({ month: 12, year: 2029 }, now)).toBe(true);
  });

  it('masks all but the first six and last four digits', () => {
    expect(maskCardNumber('4242424242424242')).toBe('424242******4242');
    expect(maskCardNumber('586824160825533338')).toBe('586824********3338');
  });

  it('classifies unknown card numbers as unsupported: issuer_not_found for charges, success for payouts', () => {
    expect(cardGroupOf('4111111111111111')).toBe('unsupported');
    expect(CARD_GROUPS.unsupported.failure).toBe('authorization_failed:payment_tool_rejected:bank_card_rejected:issuer_not_found');
    expect(CARD_GROUPS.unsupported.payoutFailure).toBeUndefined();
  });

  it('builds the merchant error tree from a code path and back', () => {
    const tree = failureTree('authorization_failed:payment_tool_rejected:bank_card_rejected:cvv_invalid');
    expect(tree).toEqual({
      code: 'authorization_failed',
      subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'cvv_invalid' } } },
    });
    expect(failurePath(tree)).toBe('authorization_failed:payment_tool_rejected:bank_card_rejected:cvv_invalid');
    expect(failureTree('timeout')).toEqual({ code: 'timeout' });
  });

  it.each([
    ['authorization_failed:insufficient_funds', 'InsufficientFunds'],
    ['authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired', 'InvalidPaymentTool'],
    ['authorization_failed:account_not_found', 'InvalidPaymentTool'],
    ['authorization_failed:account_limit_exceeded:amount', 'AccountLimitsExceeded'],
    ['authorization_failed:rejected_by_issuer', 'RejectedByIssuer'],
    ['preauthorization_failed:unknown', 'PreauthorizationFailed'],
    ['authorization_failed:unknown', 'PaymentRejected'],
    ['timeout', 'PaymentRejected'],
  ])('shows %s to a payer-side credential as %s', (path, code) => {
    expect(clientErrorCode(path)).toBe(code);
  });

  it('accepts "success" and code paths as scripted outcomes, nothing else', () => {
    expect(isOutcome('success')).toBe(true);
    expect(isOutcome('authorization_failed:insufficient_funds')).toBe(true);
    expect(isOutcome('Authorization failed')).toBe(false);
    expect(isOutcome('a::b')).toBe(false);
  });
});

describe('sandbox helpers', () => {
  it('pages an event stream strictly after an id and reports an unknown id', () => {
    const events = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(pageAfter(events, undefined, 2)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(pageAfter(events, 1, 10)).toEqual([{ id: 2 }, { id: 3 }]);
    expect(pageAfter(events, 3, 10)).toEqual([]);
    expect(pageAfter(events, 4, 10)).toBeUndefined();
    expect(pageAfter(events, 0, 10)).toBeUndefined();
  });

  it('compares idempotency features whatever the key order, ignoring absent fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: undefined } })).toBe(canonicalJson({ a: { d: [1, { e: 3, f: 2 }] }, b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });

  it('renders a schema violation in both provider dialects', () => {
    const violation = new SchemaViolation('wrong_length', 'X-Request-ID');
    expect(violation.capiBody()).toEqual({ code: 'invalidRequest', message: 'Request parameter: X-Request-ID, error type: wrong_length' });
    expect(violation.walletBody()).toEqual({ errorType: 'WrongLength', name: 'X-Request-ID' });
    const body = new SchemaViolation('schema_violated', 'Destination', 'name: is required');
    expect(body.capiBody().message).toBe('Request parameter: Destination, error type: schema_violated, description: name: is required');
    expect(body.walletBody()).toEqual({ errorType: 'SchemaViolated', name: 'Destination', description: 'name: is required' });
  });
});
