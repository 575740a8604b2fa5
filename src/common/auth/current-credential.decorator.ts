import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestCredential } from './request-credential';

/** The credential the guard accepted for this request (a handler behind the guard always has one). */
export const CurrentCredential = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const credential = requestCredential(context.switchToHttp().getRequest<Request>());
  if (!credential) throw new Error('CurrentCredential on a route the guard did not authenticate');
  return credential;
});
