import { ArgumentsHost, ExecutionContext, BadRequestException, ConflictException, HttpException, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { defer, lastValueFrom, mergeMap, of } from 'rxjs';
import { noteStatement } from '../../database/write-scope';
import { WriteScopeInterceptor } from '../http/write-scope.interceptor';
import { withErrorCode } from './coded-error';

interface Sent {
  status?: number;
  type?: string;
  body?: unknown;
  headers: Record<string, string>;
}

interface FakeRequest {
  method: string;
  originalUrl: string;
  path: string;
}

function fakeRequest(method = 'GET', originalUrl = '/api/v1/plans'): FakeRequest {
  return { method, originalUrl, path: originalUrl };
}

function answerTo(exception: unknown, request: FakeRequest | { method: string; originalUrl: string } = fakeRequest()): Sent {
  const sent: Sent = { headers: {} };
  const response = {
    status: (s: number) => ((sent.status = s), response),
    type: (t: string) => ((sent.type = t), response),
    json: (b: unknown) => ((sent.body = b), response),
    setHeader: (name: string, value: string) => ((sent.headers[name] = value), response),
  };
  const req = 'path' in request ? request : { ...request, path: request.originalUrl };
  const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => req }) } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

/** Runs a handler of `request` through the write scope's interceptor; `statements` are what it sends. */
async function handled(request: FakeRequest, statements: { sql: string; inTransaction?: boolean }[]): Promise<void> {
  const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  const handler = { handle: () => defer(async () => statements.forEach((s) => noteStatement(s.sql, s.inTransaction ?? false))) };
  await lastValueFrom(new WriteScopeInterceptor().intercept(context, handler));
}

const LOST = new Error('Connection terminated unexpectedly');

describe('AllExceptionsFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

  it("keeps Nest's fields as they are and adds the code of the status when none was given", () => {
    expect(answerTo(new ConflictException('A succeeded charge cannot be retried now'))).toEqual({
      status: 409,
      type: 'application/json',
      body: { statusCode: 409, error: 'Conflict', message: 'A succeeded charge cannot be retried now', code: 'state_conflict' },
      headers: {},
    });
  });

  it('keeps the code (and field) the thrower chose', () => {
    const body = answerTo(withErrorCode(new BadRequestException(['startAt must be…']), 'validation_failed', { field: 'startAt' })).body;
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: ['startAt must be…'], code: 'validation_failed', field: 'startAt' });
  });

  it("tells the router's own refusals apart: an unknown route, an undecodable path, a status nobody names", () => {
    expect(answerTo(new NotFoundException('Cannot DELETE /api/v1/plans'), { method: 'DELETE', originalUrl: '/api/v1/plans' }).body).toMatchObject({ code: 'route_not_found' });
    expect(answerTo(new NotFoundException('plan x not found')).body).toMatchObject({ code: 'not_found' });
    expect(answerTo(new BadRequestException("Failed to decode param '%E0'")).body).toMatchObject({ code: 'malformed_request' });
    expect(answerTo(new HttpException('Method Not Allowed', 405)).body).toEqual({ statusCode: 405, error: 'HttpException', message: 'Method Not Allowed', code: 'http_error' });
  });

  it('passes a body of another shape (the readiness report) as it is', () => {
    const report = { status: 'error', info: {}, error: { database: { status: 'down' } }, details: {} };
    expect(answerTo(new ServiceUnavailableException(report)).body).toEqual(report);
  });

  it('answers anything else as a bare 500, a client-side read error as 400, a lost database as 503, always as JSON', () => {
    expect(answerTo(new Error('secret detail'))).toEqual({
      status: 500,
      type: 'application/json',
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error; see the daemon log', code: 'internal_error' },
      headers: {},
    });
    expect(answerTo(Object.assign(new Error('aborted'), { status: 400 })).body).toMatchObject({ statusCode: 400, code: 'malformed_request' });
    expect(answerTo(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).body).toMatchObject({ statusCode: 503, code: 'database_unavailable' });
  });

  it('answers a lost database "nothing was done" only when the request committed nothing; otherwise outcome_unknown, both with Retry-After', async () => {
    const unknown = { status: 503, code: 'outcome_unknown', retryAfter: '5' };
    const nothing = { status: 503, code: 'database_unavailable', retryAfter: '5' };
    const answer = async (method: string, statements: { sql: string; inTransaction?: boolean }[]) => {
      const request = fakeRequest(method, '/api/v1/payouts');
      await handled(request, statements);
      const sent = answerTo(LOST, request);
      return { status: sent.status, code: (sent.body as { code: string }).code, retryAfter: sent.headers['Retry-After'] };
    };
    // Reads, a transaction that never reached COMMIT, or no statement at all (the connection never opened).
    expect(await answer('POST', [])).toEqual(nothing);
    expect(await answer('POST', [{ sql: 'SELECT * FROM payout_setup' }, { sql: 'SHOW server_version' }])).toEqual(nothing);
    expect(await answer('POST', [{ sql: 'START TRANSACTION', inTransaction: true }, { sql: 'INSERT INTO payouts VALUES (1)', inTransaction: true }])).toEqual(nothing);
    // A statement that commits on its own, or a COMMIT, may have made the change.
    expect(await answer('POST', [{ sql: 'INSERT INTO "payouts" VALUES (1)' }])).toEqual(unknown);
    expect(await answer('DELETE', [{ sql: 'WITH d AS (DELETE FROM x RETURNING 1) SELECT 1' }])).toEqual(unknown);
    expect(await answer('POST', [{ sql: 'SELECT 1 FROM x FOR UPDATE' }])).toEqual(unknown);
    expect(await answer('POST', [{ sql: 'INSERT INTO x VALUES (1)', inTransaction: true }, { sql: 'COMMIT', inTransaction: true }])).toEqual(unknown);
    // Tagged where it was thrown (the test clock's read, before any handler): the same header.
    const tagged = answerTo(withErrorCode(new ServiceUnavailableException('The database is unavailable'), 'database_unavailable'));
    expect([tagged.status, (tagged.body as { code: string }).code, tagged.headers['Retry-After']]).toEqual([503, 'database_unavailable', '5']);
    // A read is never "unknown": repeating it is harmless.
    expect(await answer('GET', [{ sql: 'UPDATE x SET y = 1' }])).toEqual(nothing);
    // What runs after the handler answered (the Idempotency-Key's answer write, downstream of it) is not its change.
    const keyed = fakeRequest('POST');
    const context = { switchToHttp: () => ({ getRequest: () => keyed }) } as unknown as ExecutionContext;
    const answered = new WriteScopeInterceptor().intercept(context, { handle: () => of({ id: 'x' }) });
    await lastValueFrom(answered.pipe(mergeMap(async (body) => (noteStatement('UPDATE idempotency_records SET status_code = 200', false), body))));
    expect(answerTo(LOST, keyed).body).toMatchObject({ code: 'database_unavailable' });
    // Statements outside any request's scope (a worker's) count for none.
    noteStatement('INSERT INTO x VALUES (1)', false);
    expect(answerTo(LOST, fakeRequest('POST')).body).toMatchObject({ code: 'database_unavailable' });
  });
});
