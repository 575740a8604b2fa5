import {
  CallHandler,
  ConflictException,
  ExecutionContext,
  HttpException,
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
import { reserveResourceId } from './reserved-id.decorator';

/**
 * A POST with an `Idempotency-Key` runs once: a repeat with the same key and body on the same route gets the
 * first answer again, status code included; the same key with another body is refused (409). The record reserves
 * an id for what the request creates before the handler runs (`@ReservedId()`), and create handlers insert their
 * main row with it: if the answer is never stored (a crash, a failed write), a retry that takes the key over runs
 * the handler again, which meets that row and answers it rather than making a second one. A request refused with a
 * 4xx leaves no record, so it can be retried as it was or corrected; a server error leaves the record free to be
 * taken at once by a retry with the same body.
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

    return from(this.records.claim(scopeHash, bodyHash)).pipe(
      mergeMap((resourceId) => {
        if (resourceId !== null) {
          reserveResourceId(request, resourceId);
          return next.handle().pipe(
            mergeMap(async (body: unknown) => {
              // Nest sets the route's status before the handler runs, so this is the code the client gets.
              // Tokens are answered once and never stored: a replay answers them as null.
              await this.records.recordAnswer(scopeHash, response.statusCode, withoutSecrets(body ?? null));
              return body;
            }),
            catchError((error: unknown) => {
              const settle = isRefusal(error) ? this.records.forget(scopeHash) : this.records.release(scopeHash);
              // When even that fails the record stays claimed and is taken over after five minutes, with its id.
              return from(settle.catch(() => undefined)).pipe(mergeMap(() => throwError(() => error)));
            }),
          );
        }
        return from(this.records.find(scopeHash)).pipe(
          mergeMap((record) => {
            if (record === null) {
              // The first request was refused and forgot the key between our claim and this read.
              throw withErrorCode(new ConflictException('A request with this Idempotency-Key is still in progress; retry later'), 'idempotency_key_in_progress');
            }
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

/** A 4xx: the handler refused the request, so it did nothing that a retry could meet. */
function isRefusal(error: unknown): boolean {
  return error instanceof HttpException && error.getStatus() >= 400 && error.getStatus() < 500;
}
