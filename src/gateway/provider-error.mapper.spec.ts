import { errorFromResponse, errorFromTransport } from './provider-error.mapper';

const ctx = { operation: 'createWithdrawal' as const, requestId: 'a'.repeat(32), attempts: 2 };

function systemError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe('errorFromTransport', () => {
  it('treats a refused connection as not executed, also when every address of a host refused (AggregateError)', () => {
    expect(errorFromTransport(ctx, systemError('ECONNREFUSED')).kind).toBe('not_executed');
    const aggregate = Object.assign(new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')], 'connect failed'), {
      code: 'ERR_NETWORK',
    });
    expect(errorFromTransport(ctx, aggregate)).toMatchObject({ kind: 'not_executed', networkCode: 'ECONNREFUSED' });
  });

  it('treats DNS failures as not executed: nothing left the machine', () => {
    expect(errorFromTransport(ctx, systemError('ENOTFOUND')).kind).toBe('not_executed');
    expect(errorFromTransport(ctx, systemError('EAI_AGAIN')).kind).toBe('not_executed');
  });

  it('treats a connect timeout of undici as not executed: it writes a request only on a connection made', () => {
    expect(errorFromTransport(ctx, systemError('UND_ERR_CONNECT_TIMEOUT'))).toMatchObject({ kind: 'not_executed', networkCode: 'UND_ERR_CONNECT_TIMEOUT' });
  });

  it.each([
    'ECONNRESET',
    'EPIPE',
    'ETIMEDOUT',
    'ECONNABORTED',
    'EHOSTUNREACH',
    'ERR_CANCELED',
    'UND_ERR_SOCKET',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    'UND_ERR_DESTROYED',
  ])('treats %s as an unknown outcome', (code) => {
    const error = errorFromTransport(ctx, systemError(code));
    expect(error.kind).toBe('unknown_outcome');
    expect(error.isDefinitelyNotApplied).toBe(false);
  });

  it('treats a mix of refused and reset addresses as unknown: one of them may have taken the request', () => {
    const mixed = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNRESET')], 'x');
    expect(errorFromTransport(ctx, mixed).kind).toBe('unknown_outcome');
  });

  it('treats a request that could not be built (bad header value) as unexpected and not applied', () => {
    const error = errorFromTransport(ctx, systemError('ERR_INVALID_CHAR', 'Invalid character in header content ["Authorization"]'));
    expect([error.kind, error.isDefinitelyNotApplied, error.isTransient]).toEqual(['unexpected', true, false]);
    const refusedArgument = errorFromTransport(ctx, systemError('UND_ERR_INVALID_ARG', 'invalid authorization header'));
    expect([refusedArgument.kind, refusedArgument.isDefinitelyNotApplied]).toEqual(['unexpected', true]);
  });

  it('reports our own deadline as a timeout whatever axios said', () => {
    const error = errorFromTransport(ctx, systemError('ERR_CANCELED', 'canceled'), 500);
    expect(error).toMatchObject({ kind: 'unknown_outcome', networkCode: 'ETIMEDOUT' });
    expect(error.message).toContain('no response within 500 ms');
  });

  it('never copies the raw error text, which may quote headers', () => {
    const error = errorFromTransport(ctx, systemError('ECONNRESET', 'socket hang up; Authorization: Bearer sk_live_secret'));
    expect(error.message).not.toContain('sk_live_secret');
  });
});

describe('errorFromResponse', () => {
  it('reads a 409 body into the externalID and the id holding it', () => {
    const error = errorFromResponse(ctx, 409, JSON.stringify({ externalID: 'wd-1', id: '42', message: "This 'externalID' has been used by another request" }));
    expect(error).toMatchObject({ kind: 'conflict', externalID: 'wd-1', conflictingId: '42' });
    expect(error.message).toBe(
      `Provider call createWithdrawal failed: conflict (HTTP 409) "This 'externalID' has been used by another request" externalID "wd-1" already used by "42" (X-Request-ID ${'a'.repeat(32)}, attempts: 2)`,
    );
  });

  it('copes with an error body that is not JSON', () => {
    const error = errorFromResponse(ctx, 400, '<html>Bad Request</html>');
    expect(error).toMatchObject({ kind: 'invalid_request', code: undefined, providerMessage: undefined });
  });

  it('masks card numbers the provider echoes and clips long messages', () => {
    const error = errorFromResponse(ctx, 422, JSON.stringify({ message: `Unknown card issuer 4111 1100 0000 0112 ${'x'.repeat(1000)}` }));
    expect(error.providerMessage).toContain('[REDACTED]');
    expect(error.providerMessage).not.toContain('4111 1100 0000 0112');
    expect(error.message.length).toBeLessThan(500);
  });

  it.each([
    [405, true],
    [413, true],
    [301, false],
    [307, false],
  ])('HTTP %i is unexpected; certain not to be applied: %s', (status, notApplied) => {
    const error = errorFromResponse(ctx, status, '');
    expect([error.kind, error.isDefinitelyNotApplied]).toEqual(['unexpected', notApplied]);
  });
});
