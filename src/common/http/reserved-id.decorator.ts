import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

const reservedIds = new WeakMap<Request, string>();

/** Called by the idempotency interceptor once it holds the key: the id its record keeps for what the POST creates. */
export function reserveResourceId(request: Request, id: string): void {
  reservedIds.set(request, id);
}

/**
 * The id the request's `Idempotency-Key` reserved for the resource a create handler makes, or undefined without a
 * key. A handler inserts its main row with this id, so a re-run of the same key (after a crash, or after the answer
 * could not be stored) meets the row the first run made and answers it instead of making a second one.
 */
export const ReservedId = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined =>
  reservedIds.get(context.switchToHttp().getRequest<Request>()),
);
