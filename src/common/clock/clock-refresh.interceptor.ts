import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, Observable, switchMap } from 'rxjs';
import { Clock } from './clock';

/** Admin requests see the shared test clock as it is now, whichever replica moved it. */
@Injectable()
export class ClockRefreshInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.clock.refresh()).pipe(switchMap(() => next.handle()));
  }
}
