import {
  BadRequestException,
  CallHandler,
  ConflictException,
  ExecutionContext,
  HttpStatus,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { createHash, createHmac } from 'node:crypto';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { withoutSecrets } from '../logging/redact';
import { AppConfig } from '../../config/app-config';
import { IdempotencyRecord } from './idempotency-record.entity';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with sorted keys, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/**
 * A POST with an `Idempotency-Key` runs once: a repeat with the same key and body gets the first
 * answer again; the same key with another body is refused (409). A request that fails leaves no record,
 * so it can be retried as it was.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return next.handle();
    if (typeof key !== 'string' || key.length < 1 || key.length > 64) {
      return throwError(() => new BadRequestException(['Idempotency-Key must be 1..64 characters']));
    }
    const scopeHash = sha256(`${request.method} ${request.path} ${key}`);
    // Keyed, so a stored hash of a body that carried a card number cannot be brute-forced from the
    // database alone (a card has few unknown digits once its bin and last four are known).
    const bodyHash = createHmac('sha256', this.config.providerApiKey).update(canonical(request.body ?? null)).digest('hex');
    const repository = this.dataSource.getRepository(IdempotencyRecord);
    const response = context.switchToHttp().getResponse<Response>();

    return from(
      // A first request that died mid-way (crash) leaves an unanswered record: after five minutes a
      // repeat with the same body takes it over instead of being refused forever.
      this.dataSource.query(
        `INSERT INTO idempotency_records (scope_hash, body_hash) VALUES ($1, $2)
         ON CONFLICT (scope_hash) DO UPDATE SET created_at = now()
          WHERE idempotency_records.status_code IS NULL AND idempotency_records.body_hash = EXCLUDED.body_hash
            AND idempotency_records.created_at < now() - interval '5 minutes'
         RETURNING scope_hash`,
        [scopeHash, bodyHash],
      ) as Promise<unknown[]>,
    ).pipe(
      mergeMap((inserted) => {
        if (inserted.length > 0) {
          return next.handle().pipe(
            mergeMap(async (body: unknown) => {
              const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
              await this.dataSource.query('UPDATE idempotency_records SET status_code = $2, response_body = $3 WHERE scope_hash = $1', [
                scopeHash,
                status,
                // Tokens are answered once and never stored: a replay answers them as null.
                JSON.stringify(withoutSecrets(body ?? null)),
              ]);
              return body;
            }),
            catchError((error: unknown) => from(repository.delete({ scopeHash })).pipe(mergeMap(() => throwError(() => error)))),
          );
        }
        return from(repository.findOneByOrFail({ scopeHash })).pipe(
          mergeMap((record) => {
            if (record.bodyHash !== bodyHash) {
              throw new ConflictException('This Idempotency-Key was used with another request body');
            }
            if (record.statusCode === null) {
              throw new ConflictException('A request with this Idempotency-Key is still in progress; retry later');
            }
            response.status(record.statusCode);
            return of(record.responseBody);
          }),
        );
      }),
    );
  }
}
