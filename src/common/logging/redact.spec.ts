import { REDACTED, redactText, redactValue, withoutSecrets } from './redact';

describe('redaction', () => {
  it('masks card numbers in free text, grouped or not', () => {
    expect(redactText('card 4242424242424242 declined')).toBe(`card ${REDACTED} declined`);
    expect(redactText('card 4242 4242 4242 4242')).toBe(`card ${REDACTED}`);
    expect(redactText('card 5555-5555-5555-4444!')).toBe(`card ${REDACTED}!`);
    expect(redactText('order 12345 of 2027-01-31')).toBe('order 12345 of 2027-01-31');
  });

  it('masks bearer credentials and URL passwords', () => {
    expect(redactText('Authorization: Bearer eyJhbGciOi.abc-def_1')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('connect postgres://billing:s3cret@db:5432/x failed')).toBe(`connect postgres://billing:${REDACTED}@db:5432/x failed`);
  });

  it('drops secret keys at any depth and keeps the rest', () => {
    const out = redactValue({
      headers: { authorization: 'Bearer k', 'x-request-id': 'r1' },
      body: { paymentTool: { cardNumber: '4242424242424242', cvv: '123', expDate: '12/30' }, invoiceAccessToken: { payload: 'jwt' } },
      list: [{ token: 't' }, 'pan 4000000000000002'],
      amount: 100,
    });
    expect(out).toEqual({
      headers: { authorization: REDACTED, 'x-request-id': 'r1' },
      body: { paymentTool: { cardNumber: REDACTED, cvv: REDACTED, expDate: '12/30' }, invoiceAccessToken: REDACTED },
      list: [{ token: REDACTED }, `pan ${REDACTED}`],
      amount: 100,
    });
  });

  it('redacts error messages and stacks', () => {
    const out = redactValue(new Error('bad card 4242424242424242')) as { message: string; stack: string };
    expect(out.message).toBe(`bad card ${REDACTED}`);
    expect(out.stack).not.toContain('4242424242424242');
  });
});

describe('withoutSecrets', () => {
  it('nulls secret values for storage and keeps everything else', () => {
    expect(withoutSecrets({ id: 'c1', customerAccessToken: 'jwt', nested: [{ token: 't', n: 1 }] })).toEqual({
      id: 'c1',
      customerAccessToken: null,
      nested: [{ token: null, n: 1 }],
    });
  });
});
