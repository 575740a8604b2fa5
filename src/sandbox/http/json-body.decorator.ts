import { BadRequestException, createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The JSON body of a control request (the sandbox reads bodies as text, so it can answer bad JSON in each API's own shape). */
export const JsonBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const raw: unknown = context.switchToHttp().getRequest<Request>().body;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new BadRequestException('Request body is not valid JSON');
  }
});
