import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../../database/database-unavailable';

/**
 * Answers HttpExceptions in Nest's shape and turns anything else into a bare 500 that leaks nothing;
 * the unexpected error is logged with its context (the logger redacts secrets).
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
      const body = exception.getResponse();
      response.status(status).json(typeof body === 'string' ? { statusCode: status, error: exception.name, message: body } : body);
      return;
    }
    const clientStatus = clientErrorStatus(exception);
    if (clientStatus !== null) {
      // An HTTP-layer error (express, body reading) that already knows it is the client's fault.
      response.status(clientStatus).json({ statusCode: clientStatus, error: 'Bad Request', message: 'The request could not be read' });
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ method: request.method, path: request.path, err: exception }, 'The database is unavailable');
      response
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .json({ statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; retry shortly' });
      return;
    }
    this.logger.error({ err: exception, method: request.method, path: request.path }, 'Unexpected error while handling a request');
    response
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error; see the daemon log' });
  }
}

function clientErrorStatus(e: unknown): number | null {
  const status = typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}
