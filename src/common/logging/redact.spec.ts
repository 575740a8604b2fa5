import { isSecretKey, REDACTED, redactText, redactValue, withoutSecrets } from './redact';

describe('redaction', () => {
  it('masks card numbers in free text, grouped or not', () => {
    expect(redactText('card 4242424242424242 declined')).toBe(`card ${REDACTED} declined`);
    expect(redactText('card 4242 4242 4242 4242')).toBe(`card ${REDACTED}`);
    // HUMO (9860…), which payouts accept, and Mir (2200…).
    expect(redactText('humo 9860099104199734 and 9860 0942 4220 1120')).toBe(`humo ${REDACTED} and ${REDACTED}`);
    expect(redactText('mir 2201382000000013')).toBe(`mir ${REDACTED}`);
    expect(redactText('card 5555-5555-5555-4444!')).toBe(`card ${REDACTED}!`);
    expect(redactText('order 12345 of 2027-01-31')).toBe('order 12345 of 2027-01-31');
  });

  it('masks bearer credentials and URL passwords', () => {
    expect(redactText('Authorization: Bearer eyJhbGciOi.abc-def_1')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('connect postgres://billing:s3cret@db:5432/x failed')).toBe(`connect postgres://billing:${REDACTED}@db:5432/x failed`);
  });

  it("masks a recovery link's MAC and keeps its link id", () => {
    const id = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
    expect(redactText(`GET /pay/${id}.l0Vn0cYqgY0cQm1y4Qm8b0VdXyJ4P6oC2Yx7i3lM7aE 200`)).toBe(`GET /pay/${id}.[REDACTED] 200`);
    expect(withoutSecrets({ url: `https://billing.example.com/pay/${id}.l0Vn0cYqgY0cQm1y4Qm8b0VdXyJ4P6oC2Yx7i3lM7aE`, expiresAt: 'x' })).toEqual({ url: null, expiresAt: 'x' });
  });

  it('masks webhook signing secrets in free text', () => {
    expect(redactText('secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+x/y= was used')).toBe(`secret ${REDACTED} was used`);
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

describe('redaction of what the first version missed', () => {
  it.each(['customer_access_token', 'access-token', 'api-key', 'API_KEY', 'X-Api-Key', 'cvc2', 'CVV2', 'card_number', 'payment_tool_token', 'payment-session', 'client_secret', 'webhookSecret', 'Proxy-Authorization', 'refresh_token', 'privateKey'])(
    'treats %s as a secret key',
    (key) => expect(isSecretKey(key)).toBe(true),
  );

  it.each(['amount', 'currency', 'id', 'chargeId', 'tokenizedAt', 'status', 'expDate', 'lastDigits', 'idempotencyKey'])('keeps %s', (key) => expect(isSecretKey(key)).toBe(false));

  it.each([
    ['card4242424242424242', `card${REDACTED}`],
    ['x_4242424242424242_y', `x_${REDACTED}_y`],
    ['pan=5555555555554444;', `pan=${REDACTED};`],
    ['Authorization: Basic YWRtaW46c2VjcmV0', `Authorization: Basic ${REDACTED}`],
    ['basic YWRtaW46c2VjcmV0 rest', `basic ${REDACTED} rest`],
  ])('masks %s', (text, expected) => expect(redactText(text)).toBe(expected));

  it.each([
    'subscription 123e4567-e89b-12d3-a456-426614174000 billed',
    'charge 00000000-0000-4000-8000-000000000000',
    'amount 1234567890123',
    'amount 311688000 captured',
    'invoice 1000000000000001 total',
    'ids 9999999999999999',
  ])('leaves %s as it is', (text) => expect(redactText(text)).toBe(text));
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

describe('secret query parameters (hosted form links carry a customer access token)', () => {
  const link = 'http://127.0.0.1:8123/sandbox/hosted-form?customerID=AbC123&customerAccessToken=s3cr3tT0ken';

  it('masks them in log text, whatever the case or spelling of the name, and keeps the other parameters', () => {
    expect(redactText(`open ${link} now`)).toBe(`open http://127.0.0.1:8123/sandbox/hosted-form?customerID=AbC123&customerAccessToken=${REDACTED} now`);
    expect(redactText('GET /x?access_token=abc&limit=5')).toBe(`GET /x?access_token=${REDACTED}&limit=5`);
    expect(redactText('GET /x?limit=5&page=2')).toBe('GET /x?limit=5&page=2');
  });

  it('takes them out of stored URLs, so the link left is the one anyone may see', () => {
    expect(withoutSecrets({ hostedFormUrl: link, note: 'see ?token=x' })).toEqual({
      hostedFormUrl: 'http://127.0.0.1:8123/sandbox/hosted-form?customerID=AbC123',
      note: 'see ?token=x',
    });
    expect(withoutSecrets('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
  });
});
