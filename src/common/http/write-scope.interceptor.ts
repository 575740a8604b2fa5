import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { WriteScope } from '../../database/write-scope';

const scopes = new WeakMap<Request, WriteScope>();

/** What the request's handler may have committed (see WriteScope); undefined before a handler ran. */
export function writeScopeOf(request: Request): WriteScope | undefined {
  return scopes.get(request);
}

/**
 * Notes what each handler's statements could have committed, so the exception filter answers a lost database
 * honestly. It runs inside the Idempotency-Key's interceptor: the key's own record is bookkeeping, not the change.
 */
@Injectable()
export class WriteScopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const scope = new WriteScope();
    scopes.set(context.switchToHttp().getRequest<Request>(), scope);
    // Subscribed inside the scope: the handler, and everything it awaits or starts, runs in it.
    return new Observable((subscriber) => scope.run(() => next.handle().subscribe(subscriber)));
  }
}
