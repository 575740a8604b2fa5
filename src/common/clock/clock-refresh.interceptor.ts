import { CallHandler, ExecutionContext, Injectable, NestInterceptor, ServiceUnavailableException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { PUBLIC_ROUTE } from '../http/public-route.decorator';
import { Clock } from './clock';
import { withErrorCode } from '../errors/coded-error';

/**
 * Admin requests see the shared test clock as it is now, whichever replica moved it. Public routes (probes,
 * metrics) never touch the database here: liveness must not depend on it.
 */
@Injectable()
export class ClockRefreshInterceptor implements NestInterceptor {
  constructor(
    private readonly clock: Clock,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) === true) return next.handle();
    return from(this.clock.refresh()).pipe(
      catchError((error: unknown) =>
        throwError(() => {
          const unavailable = withErrorCode(
            new ServiceUnavailableException('The database is unavailable (the shared test clock cannot be read); retry shortly'),
            'database_unavailable',
          );
          unavailable.cause = error;
          return unavailable;
        }),
      ),
      switchMap(() => next.handle()),
    );
  }
}
