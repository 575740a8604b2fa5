import { ArgumentsHost, BadRequestException, ConflictException, HttpException, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { withErrorCode } from './coded-error';

interface Sent {
  status?: number;
  type?: string;
  body?: unknown;
}

function answerTo(exception: unknown, request: { method: string; originalUrl: string } = { method: 'GET', originalUrl: '/api/v1/plans' }): Sent {
  const sent: Sent = {};
  const response = {
    status: (s: number) => ((sent.status = s), response),
    type: (t: string) => ((sent.type = t), response),
    json: (b: unknown) => ((sent.body = b), response),
  };
  const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ ...request, path: request.originalUrl }) }) } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

describe('AllExceptionsFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

  it("keeps Nest's fields as they are and adds the code of the status when none was given", () => {
    expect(answerTo(new ConflictException('A succeeded charge cannot be retried now'))).toEqual({
      status: 409,
      type: 'application/json',
      body: { statusCode: 409, error: 'Conflict', message: 'A succeeded charge cannot be retried now', code: 'state_conflict' },
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
    });
    expect(answerTo(Object.assign(new Error('aborted'), { status: 400 })).body).toMatchObject({ statusCode: 400, code: 'malformed_request' });
    expect(answerTo(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).body).toMatchObject({ statusCode: 503, code: 'database_unavailable' });
  });
});
