import { applyDecorators, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, ErrorCode } from '../errors/error-codes';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../http/json-body-rules';

/** What any admin route may answer: no token, or no database. */
const ADMIN_ERRORS: ErrorCode[] = ['unauthorized', 'insufficient_scope', 'rate_limited', 'database_unavailable'];

/** What a route that changes something may answer besides: the database lost after its change was sent. */
const WRITE_ERRORS: ErrorCode[] = ['outcome_unknown'];

/** The answers of a lost database carry Retry-After. */
const RETRY_AFTER_CODES = new Set<ErrorCode>(['database_unavailable', 'outcome_unknown', 'rate_limited']);
const RETRY_AFTER_HEADER = { 'Retry-After': { description: 'With `database_unavailable`, `outcome_unknown` and `rate_limited`: seconds to wait before repeating.', schema: { type: 'integer' as const } } };

/** What the JSON body rules refuse on every route that takes a body. */
const BODY_ERRORS: ErrorCode[] = [
  'validation_failed',
  'invalid_json',
  'body_too_deep',
  'malformed_request',
  'payload_too_large',
  'unsupported_media_type',
  'unsupported_encoding',
];

/** What a malformed or unknown `:id` gets. */
const ID_ERRORS: ErrorCode[] = ['validation_failed', 'malformed_request', 'not_found'];

/** A provider call made while answering. */
export const PROVIDER_ERRORS: ErrorCode[] = ['provider_refused', 'provider_conflict', 'provider_unavailable', 'provider_error', 'provider_timeout'];

/** A route without a body still reads one that is sent (the body rules run before routing), and refuses it the same way. */
const STRAY_BODY_NOTE = 'Takes no body; a body sent anyway must follow the same rules as any (JSON, uncompressed, at most 1 MiB), or is refused (400, 413, 415).';

const BODY_RULES = `The body is JSON (Content-Type application/json, charset utf-8 if given), at most ${MAX_BODY_BYTES} bytes, nested at most ${MAX_JSON_DEPTH} levels, with no NUL character or lone surrogate in any text; unknown fields are refused.`;

const IDEMPOTENCY_ERRORS: ErrorCode[] = ['validation_failed', 'idempotency_key_reused', 'idempotency_key_in_progress'];

export interface AdminRouteDoc {
  /** One line: what the route does. */
  summary: string;
  description?: string;
  /** The error codes this route may answer beyond 401 and 503 (which every admin route may; `outcome_unknown` every one that writes). */
  errors?: ErrorCode[];
  /** The route takes a JSON body: documents the body rules (every route documents their refusals). */
  body?: boolean;
  /** A POST: takes an optional Idempotency-Key (documents the header and its refusals). */
  idempotent?: boolean;
  /** The route has an `:id` path parameter naming this kind of object. */
  id?: string;
}

function errorBody(code: ErrorCode, status: number) {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message: ERROR_CODES[code].example, code };
}

/** One documented answer per status, each listing its codes with a named example of each. */
function ApiErrors(codes: ErrorCode[]): MethodDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    if (status === null) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, group]) =>
      ApiResponse({
        status,
        description: group.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join('\n\n'),
        type: ErrorResponseDto,
        examples: Object.fromEntries(group.map((code) => [code, { summary: code, value: errorBody(code, status) }])),
        ...(group.some((code) => RETRY_AFTER_CODES.has(code)) && { headers: RETRY_AFTER_HEADER }),
      }),
    );
  return applyDecorators(...responses);
}

/**
 * The description of one admin route: its summary, the bearer token (document-wide), its path id, the
 * Idempotency-Key header of a POST, and every error it may answer. It reads the route's method, so it stands above
 * the route decorator (`@Get`, `@Post`…), which decorators apply first.
 */
export function ApiAdminRoute(doc: AdminRouteDoc): MethodDecorator {
  return (target, key, descriptor) => {
    const method = Reflect.getMetadata(METHOD_METADATA, descriptor.value as object) as RequestMethod | undefined;
    if (method === undefined) throw new Error(`@ApiAdminRoute on ${String(key)} must stand above its route decorator (@Get, @Post…)`);
    const writes = method !== RequestMethod.GET && method !== RequestMethod.HEAD;
    const codes = [
      ...BODY_ERRORS,
      ...(doc.idempotent ? IDEMPOTENCY_ERRORS : []),
      ...(doc.id ? ID_ERRORS : []),
      ...(doc.errors ?? []),
      ...ADMIN_ERRORS,
      ...(writes ? WRITE_ERRORS : []),
    ];
    const description = [doc.description, doc.body ? BODY_RULES : STRAY_BODY_NOTE].filter((part) => part !== undefined).join('\n\n');
    const decorators: MethodDecorator[] = [ApiOperation({ summary: doc.summary, ...(description ? { description } : {}) }), ApiErrors(codes)];
    if (doc.id) {
      decorators.push(ApiParam({ name: 'id', description: `The ${doc.id}'s id`, schema: { type: 'string', format: 'uuid' }, example: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e' }));
    }
    if (doc.idempotent) {
      decorators.push(
        ApiHeader({
          name: 'Idempotency-Key',
          required: false,
          description: 'Any 1..64 characters. A repeat on this route with the same key and body answers the first answer again and does nothing; kept at least 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 64, example: 'order-1234-subscribe' },
        }),
      );
    }
    applyDecorators(...decorators)(target, key, descriptor);
  };
}

/** A route anyone may call: no bearer token. */
export function ApiPublicRoute(doc: { summary: string; description?: string; errors?: ErrorCode[] }): MethodDecorator {
  return applyDecorators(ApiOperation({ summary: doc.summary, description: doc.description, security: [] }), ApiErrors(doc.errors ?? []));
}

/** The answer of a list: `{ items: [...], nextCursor }`, newest first. */
export function ApiPageResponse(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description: 'One page, newest first. Pass `nextCursor` as `cursor` for the next page; null on the last one.',
      schema: {
        type: 'object',
        required: ['items', 'nextCursor'],
        properties: {
          items: { type: 'array', items: { $ref: getSchemaPath(model) } },
          nextCursor: { type: 'string', nullable: true, example: null, description: 'Opaque; null when this is the last page.' },
        },
      },
    }),
  );
}
