import { BadRequestException, HttpException } from '@nestjs/common';
import type { ErrorCode } from './error-codes';

export interface ErrorFields {
  /** The one request field at fault, as a path (`lines.0.price`, `Idempotency-Key` for a header). */
  field?: string;
  /** Every field at fault, first first; only for validation failures. */
  fields?: string[];
}

/**
 * Adds the stable `code` (and the field at fault) to an exception's body, next to Nest's `statusCode`, `error`
 * and `message`, which stay as they are. Nest's built-in exceptions always carry an object body.
 */
export function withErrorCode<E extends HttpException>(exception: E, code: ErrorCode, fields: ErrorFields = {}): E {
  const body = exception.getResponse();
  if (typeof body === 'object' && body !== null) {
    Object.assign(body, { code }, fields.field === undefined ? {} : { field: fields.field }, fields.fields === undefined ? {} : { fields: fields.fields });
  }
  return exception;
}

/** A 400 about one field: the message names it for people, `field` for programs. */
export function invalidField(field: string, message: string): BadRequestException {
  return withErrorCode(new BadRequestException([message]), 'validation_failed', { field, fields: [field] });
}
