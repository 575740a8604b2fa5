import { ProviderError } from './provider-error';
import type { ProviderOperation } from './provider-operation';

/** Which attempt an error belongs to. */
export interface AttemptContext {
  operation: ProviderOperation;
  requestId: string;
  attempts: number;
}

/**
 * The connection was never made or the host never resolved: the request did not reach the provider. undici writes a
 * request only on a connection already made, so its connect timeout is one of these.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** axios or undici refused to build the request (undici checks its arguments before it writes anything): nothing was sent. */
const NOT_BUILT_CODES: ReadonlySet<string> = new Set([
  'ERR_INVALID_URL',
  'ERR_BAD_OPTION',
  'ERR_BAD_OPTION_VALUE',
  'ERR_NOT_SUPPORT',
  'ERR_INVALID_CHAR',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_INVALID_HTTP_TOKEN',
  'UND_ERR_INVALID_ARG',
]);

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function stringField(body: unknown, key: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** Maps a non-2xx HTTP response to the error the caller acts on. */
export function errorFromResponse(ctx: AttemptContext, status: number, rawBody: string): ProviderError {
  const body = parseJson(rawBody);
  const base = { operation: ctx.operation, httpStatus: status, requestId: ctx.requestId, attempts: ctx.attempts };
  const message = stringField(body, 'message');
  switch (status) {
    case 400: {
      // CAPI: {code, message}; Wallet API: {errorType, name?, description?}.
      const errorType = stringField(body, 'errorType');
      if (errorType !== undefined) {
        const name = stringField(body, 'name');
        const description = stringField(body, 'description');
        const providerMessage = [name, description].filter((p) => p !== undefined && p !== '').join(': ');
        return new ProviderError({ ...base, kind: 'invalid_request', code: errorType, providerMessage: providerMessage || undefined });
      }
      return new ProviderError({ ...base, kind: 'invalid_request', code: stringField(body, 'code'), providerMessage: message });
    }
    case 401:
    case 403:
      // The provider documents only 401 for refused credentials; a 403 (e.g. from a gateway in front) means the same to us.
      return new ProviderError({ ...base, kind: 'unauthorized', providerMessage: message });
    case 404:
      return new ProviderError({ ...base, kind: 'not_found', providerMessage: message });
    case 409:
      return new ProviderError({
        ...base,
        kind: 'conflict',
        externalID: stringField(body, 'externalID'),
        conflictingId: stringField(body, 'id'),
        providerMessage: message,
      });
    case 422:
      return new ProviderError({ ...base, kind: 'business_rule', providerMessage: message });
    case 503:
      // Documented as "request guaranteed not executed".
      return new ProviderError({ ...base, kind: 'not_executed', providerMessage: message });
    default:
      if (status >= 500) {
        // 504 is documented as "result undefined"; 500 and the rest promise nothing either.
        return new ProviderError({ ...base, kind: 'unknown_outcome', providerMessage: message });
      }
      // 429 and other 4xx are refusals before execution; a 3xx may follow an applied POST (303), so it proves nothing.
      return new ProviderError({ ...base, kind: 'unexpected', providerMessage: message, notApplied: status >= 400 && status < 500 });
  }
}

/** A 2xx whose body cannot be read as the expected result: the call probably worked, but we cannot tell what it made. */
export function errorFromUnreadableBody(ctx: AttemptContext, status: number, reason: string): ProviderError {
  return new ProviderError({
    kind: 'unknown_outcome',
    operation: ctx.operation,
    httpStatus: status,
    reason,
    requestId: ctx.requestId,
    attempts: ctx.attempts,
  });
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3 || value === null || typeof value !== 'object') return;
    const code = (value as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    // Node's happy-eyeballs connect reports one AggregateError holding a failure per address.
    const nested = (value as { errors?: unknown }).errors;
    if (Array.isArray(nested)) nested.forEach((e) => visit(e, depth + 1));
    visit((value as { cause?: unknown }).cause, depth + 1);
  };
  visit(error, 0);
  return codes;
}

/**
 * Maps a failure without an HTTP response. `deadlineMs` is set when our own deadline aborted the call.
 * Only the raw code and a fixed description are kept: axios errors carry the request config, headers included.
 */
export function errorFromTransport(ctx: AttemptContext, error: unknown, deadlineMs?: number): ProviderError {
  const base = { operation: ctx.operation, requestId: ctx.requestId, attempts: ctx.attempts };
  if (deadlineMs !== undefined) {
    return new ProviderError({ ...base, kind: 'unknown_outcome', networkCode: 'ETIMEDOUT', reason: `no response within ${deadlineMs} ms` });
  }
  const codes = errorCodes(error);
  if (codes.some((c) => NOT_BUILT_CODES.has(c))) {
    return new ProviderError({ ...base, kind: 'unexpected', networkCode: codes[0], reason: 'the request could not be built', notApplied: true });
  }
  // axios wraps socket errors in its own ERR_* codes at times; judge by the system codes underneath.
  const systemCodes = codes.filter((c) => !c.startsWith('ERR_'));
  if (systemCodes.length > 0 && systemCodes.every((c) => NOT_SENT_CODES.has(c))) {
    return new ProviderError({ ...base, kind: 'not_executed', networkCode: systemCodes[0], reason: 'the provider could not be reached' });
  }
  if (codes.some((c) => TIMEOUT_CODES.has(c))) {
    return new ProviderError({ ...base, kind: 'unknown_outcome', networkCode: 'ETIMEDOUT', reason: 'the provider did not answer in time' });
  }
  // ECONNRESET ("socket hang up"), EPIPE and anything else after the request may have left: the provider may have acted.
  return new ProviderError({ ...base, kind: 'unknown_outcome', networkCode: systemCodes[0] ?? codes[0] ?? 'UNKNOWN', reason: 'the connection failed before a response arrived' });
}
