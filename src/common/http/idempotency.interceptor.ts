import {
  CallHandler,
  ConflictException,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { withoutSecrets } from '../logging/redact';
import { IdempotencyRecordsRepository } from './idempotency-records.repository';
import { idempotencyBodyHash, idempotencyScopeHash } from './idempotency-scope';
import { invalidField, withErrorCode } from '../errors/coded-error';

/**
 * A POST with an `Idempotency-Key` runs once: a repeat with the same key and body on the same route gets the
 * first answer again, status code included; the same key with another body is refused (409). A request that
 * fails leaves no record, so it can be retried as it was.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRecordsRepository,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return next.handle();
    if (typeof key !== 'string' || key.length < 1 || key.length > 64) {
      return throwError(() => invalidField('Idempotency-Key', 'Idempotency-Key must be 1..64 characters'));
    }
    const scopeHash = idempotencyScopeHash(request.method, this.routeTemplate(context), request.params ?? {}, key);
    const bodyHash = idempotencyBodyHash(request.body);
    const response = context.switchToHttp().getResponse<Response>();

    return from(
      // A first request that died mid-way (crash) leaves an unanswered record: after five minutes a
      // repeat with the same body takes it over instead of being refused forever.
      this.records.claim(scopeHash, bodyHash),
    ).pipe(
      mergeMap((first) => {
        if (first) {
          return next.handle().pipe(
            mergeMap(async (body: unknown) => {
              // Nest sets the route's status before the handler runs, so this is the code the client gets.
              // Tokens are answered once and never stored: a replay answers them as null.
              await this.records.recordAnswer(scopeHash, response.statusCode, withoutSecrets(body ?? null));
              return body;
            }),
            catchError((error: unknown) => from(this.records.forget(scopeHash)).pipe(mergeMap(() => throwError(() => error)))),
          );
        }
        return from(this.records.find(scopeHash)).pipe(
          mergeMap((record) => {
            if (record.bodyHash !== bodyHash) {
              throw withErrorCode(new ConflictException('This Idempotency-Key was used with another request body'), 'idempotency_key_reused');
            }
            if (record.statusCode === null) {
              throw withErrorCode(new ConflictException('A request with this Idempotency-Key is still in progress; retry later'), 'idempotency_key_in_progress');
            }
            response.status(record.statusCode);
            return of(record.responseBody);
          }),
        );
      }),
    );
  }

  /** `api/v1/plans/:id/archive`: the controller's path and the handler's, as declared. */
  private routeTemplate(context: ExecutionContext): string {
    const parts = [this.reflector.get<string>(PATH_METADATA, context.getClass()), this.reflector.get<string>(PATH_METADATA, context.getHandler())];
    return parts
      .filter((p) => typeof p === 'string')
      .join('/')
      .split('/')
      .filter((segment) => segment !== '')
      .join('/');
  }
}
