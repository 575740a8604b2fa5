import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable, tap } from 'rxjs';
import { WriteScope } from '../../database/write-scope';

const scopes = new WeakMap<Request, WriteScope>();

/** What the request's handler may have committed (see WriteScope); undefined before a handler ran. */
export function writeScopeOf(request: Request): WriteScope | undefined {
  return scopes.get(request);
}

/**
 * Notes what each handler's statements could have committed, so the exception filter answers a lost database
 * honestly. It runs inside the Idempotency-Key's interceptor, and closes with the handler's answer: the key's own
 * record (claimed before, answered after) is bookkeeping, not the change.
 */
@Injectable()
export class WriteScopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const scope = new WriteScope();
    scopes.set(context.switchToHttp().getRequest<Request>(), scope);
    // Called and subscribed inside the scope (Nest binds what handle() starts to the context it is called in): the
    // handler, and everything it awaits or starts, runs in it. Its answer (or error) closes the scope: the outer
    // interceptor's answer write runs on in the same async context.
    const close = () => scope.close();
    return new Observable((subscriber) => scope.run(() => next.handle().pipe(tap({ next: close, error: close })).subscribe(subscriber)));
  }
}
