import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { ActorContext } from './actor-context';
import { requestCredential } from './request-credential';

/**
 * Runs each handler (and everything it awaits or starts) as the request's actor, so every audit entry and event it
 * records names who asked, without threading the caller through every service. Public routes run as `system`.
 */
@Injectable()
export class ActorContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const credential = requestCredential(context.switchToHttp().getRequest<Request>());
    if (!credential) return next.handle();
    return new Observable((subscriber) => ActorContext.run(credential.actor, () => next.handle().subscribe(subscriber)));
  }
}
