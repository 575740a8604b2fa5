import { BadRequestException, HttpException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import bodyParser from 'body-parser';
import { parse as parseContentType } from 'content-type';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { withErrorCode } from '../errors/coded-error';
import { jsonBodyProblem, MAX_BODY_BYTES, MAX_JSON_DEPTH, nestsDeeperThan } from './json-body-rules';

/** The provider's webhook deliveries (see ProviderWebhooksController). */
const PROVIDER_WEBHOOK_PATH = '/webhooks/provider';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Why the headers rule the body out before a byte of it is read, or null. */
function headerProblem(request: Request): HttpException | null {
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') {
    return withErrorCode(new UnsupportedMediaTypeException(`Content-Encoding ${encoding} is not supported: send the body uncompressed`), 'unsupported_encoding');
  }
  const header = request.headers['content-type'];
  if (!header) return new UnsupportedMediaTypeException('A request body needs the header Content-Type: application/json');
  let type: string;
  let charset: string | undefined;
  try {
    const parsed = parseContentType(header);
    type = parsed.type;
    charset = parsed.parameters.charset;
  } catch {
    return new UnsupportedMediaTypeException('Content-Type is not a valid media type: send Content-Type: application/json');
  }
  if (type !== 'application/json') {
    return new UnsupportedMediaTypeException(`Content-Type ${type} is not supported: send JSON with Content-Type: application/json`);
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return new UnsupportedMediaTypeException(`charset ${charset} is not supported: send the body as UTF-8`);
  }
  return null;
}

/** Body-parser's own errors (size, aborted stream) as the 4xx they are. */
function readProblem(error: { type?: string; status?: number; message?: string }): HttpException {
  if (error.type === 'entity.too.large') {
    return withErrorCode(new PayloadTooLargeException(`The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`), 'payload_too_large');
  }
  const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 400;
  const message = `The request body could not be read: ${error.message ?? 'unknown'}`;
  return withErrorCode(new HttpException({ statusCode: status, error: 'Bad Request', message }, status), 'malformed_request');
}

/**
 * The admin body rules over raw bytes: UTF-8, nesting at most 32 levels (checked before parsing), a JSON object,
 * no NUL or lone surrogate, no prototype keys. Throws the 4xx that names the problem. Also applied to the
 * provider's signed events, once their signature is checked.
 */
export function parseJsonBody(raw: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw withErrorCode(new BadRequestException(['The request body is not valid UTF-8']), 'invalid_json');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw withErrorCode(new BadRequestException([`The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`]), 'body_too_deep');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw withErrorCode(new BadRequestException([`The request body is not valid JSON: ${(e as Error).message}`]), 'invalid_json');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw withErrorCode(new BadRequestException(['The request body must be a JSON object']), 'invalid_json');
  }
  const problem = jsonBodyProblem(value);
  if (problem) {
    throw withErrorCode(new BadRequestException([problem.message]), 'validation_failed', problem.field === undefined ? {} : { field: problem.field, fields: [problem.field] });
  }
  return value as Record<string, unknown>;
}

/**
 * The only body parser of the admin API: JSON in UTF-8, at most 1 MiB, nested at most 32 levels, no NUL
 * or lone surrogate anywhere, no prototype keys. Every refusal is a 4xx naming the problem, raised before
 * any handler runs, so a refused request changes nothing.
 */
export function jsonBodyMiddleware(): RequestHandler {
  const readRaw = bodyParser.raw({ type: () => true, limit: MAX_BODY_BYTES, inflate: false });
  return (request: Request, response: Response, next: NextFunction) => {
    if (!hasBody(request)) return next();
    // The provider's signature covers the exact bytes: that one route gets them unparsed (`rawBody`), and checks
    // them itself. Any other spelling of the path is parsed as JSON and so carries no raw body to verify.
    if (request.method === 'POST' && request.path === PROVIDER_WEBHOOK_PATH) {
      return readRaw(request, response, (error?: unknown) => {
        if (error) return next(readProblem(error as { type?: string; status?: number; message?: string }));
        (request as Request & { rawBody?: Buffer }).rawBody = request.body as Buffer;
        request.body = undefined;
        next();
      });
    }
    const problem = headerProblem(request);
    if (problem) return next(problem);
    readRaw(request, response, (error?: unknown) => {
      if (error) return next(readProblem(error as { type?: string; status?: number; message?: string }));
      try {
        request.body = parseJsonBody(request.body as Buffer);
      } catch (e) {
        return next(e);
      }
      next();
    });
  };
}
