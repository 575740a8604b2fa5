import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../../database/database-unavailable';
import { writeScopeOf } from '../http/write-scope.interceptor';
import { ERROR_CODES, ErrorCode } from './error-codes';
import { RateLimitedException } from './rate-limited.exception';

/** The code an error gets when whoever threw it named none: the usual meaning of its status. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'insufficient_scope',
  404: 'not_found',
  409: 'state_conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'business_rule',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'provider_error',
  503: 'service_unavailable',
  504: 'provider_timeout',
};

/** When a client hears of a lost database: a restart or a failover takes seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Whether a request failed by a lost database may have changed something: it writes, and its handler sent a
 * statement that could commit (write-scope.ts). A read, or a write whose connection failed before any such statement,
 * changed nothing, and only then is the answer "nothing was done".
 */
function mayHaveChanged(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  return writeScopeOf(request)?.mayHaveCommitted ?? false;
}

/** Nest's router answers an unknown method and path with exactly this message. */
const isRouteNotFound = (exception: HttpException, request: Request) =>
  exception instanceof NotFoundException && exception.message === `Cannot ${request.method} ${request.originalUrl}`;

/** Express cannot percent-decode a path parameter; Nest passes its message on as a 400. */
const isUndecodablePath = (exception: HttpException) => exception instanceof BadRequestException && exception.message.startsWith('Failed to decode param');

/** The code the HTTP layer's own refusals get, which nobody could tag where they were thrown. */
function routerCode(exception: HttpException, request: Request): ErrorCode | null {
  if (isRouteNotFound(exception, request)) return 'route_not_found';
  if (isUndecodablePath(exception)) return 'malformed_request';
  return null;
}

/** Nest's error shape (statusCode, error, message) plus the stable `code`; other bodies (the health report) pass as they are. */
function withCode(body: object, status: number, fallback: ErrorCode): object {
  const isErrorShape = 'statusCode' in body && 'message' in body;
  if (!isErrorShape || 'code' in body) return body;
  return { ...body, code: CODE_BY_STATUS[status] ?? fallback };
}

/**
 * Answers HttpExceptions in Nest's shape with a `code` added, and turns anything else into a bare 500 that
 * leaks nothing; the unexpected error is logged with its context (the logger redacts secrets).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request>();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const raw = exception.getResponse();
      const body = typeof raw === 'string' ? { statusCode: status, error: exception.name, message: raw } : raw;
      const fromRouter = routerCode(exception, request);
      const coded = fromRouter !== null ? { ...body, code: fromRouter } : withCode(body, status, 'http_error');
      // The test clock's read, which fails before any handler, answers database_unavailable this way.
      if ((coded as { code?: unknown }).code === 'database_unavailable') response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      if (exception instanceof RateLimitedException) response.setHeader('Retry-After', String(exception.retryAfterSeconds));
      sendJson(response, status, coded);
      return;
    }
    const clientStatus = clientErrorStatus(exception);
    if (clientStatus !== null) {
      // An HTTP-layer error (express, body reading) that already knows it is the client's fault.
      sendJson(response, clientStatus, { statusCode: clientStatus, error: 'Bad Request', message: 'The request could not be read', code: 'malformed_request' satisfies ErrorCode });
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      const unknown = mayHaveChanged(request);
      this.logger.warn({ method: request.method, path: request.path, err: exception }, unknown ? 'The database answer was lost after a change was sent' : 'The database is unavailable');
      response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      sendJson(response, HttpStatus.SERVICE_UNAVAILABLE, {
        statusCode: 503,
        error: 'Service Unavailable',
        ...(unknown
          ? { message: ERROR_CODES.outcome_unknown.example, code: 'outcome_unknown' satisfies ErrorCode }
          : { message: ERROR_CODES.database_unavailable.example, code: 'database_unavailable' satisfies ErrorCode }),
      });
      return;
    }
    this.logger.error({ err: exception, method: request.method, path: request.path }, 'Unexpected error while handling a request');
    sendJson(response, HttpStatus.INTERNAL_SERVER_ERROR, {
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error; see the daemon log',
      code: 'internal_error' satisfies ErrorCode,
    });
  }
}

/** An error is JSON even from a route that declared another type for its answer (the metrics' text). */
function sendJson(response: Response, status: number, body: object): void {
  response.status(status).type('application/json').json(body);
}

function clientErrorStatus(e: unknown): number | null {
  const status = typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}
