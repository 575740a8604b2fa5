import createClient, { type Middleware } from 'openapi-fetch';
import { i18next } from '../i18n/i18n';
import type { paths } from './openapi.gen';

/**
 * An answer of the admin API that was not a success: its stable `code`, its message (the daemon's, in English), the
 * field at fault, and the rest of the error body (`scope`, `providerCode`…) that a translated message may name.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Listeners told when the session is gone (expired, signed out elsewhere), so the app shows the sign-in page. */
const signedOutListeners = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * Every call goes to this origin with the session cookie and `X-Console: 1`, the header without which the admin API
 * ignores the cookie. The header also forces a CORS preflight on any cross-site copy of the request.
 */
const consoleHeader: Middleware = {
  onRequest({ request }) {
    request.headers.set('X-Console', '1');
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) for (const listener of signedOutListeners) listener();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(consoleHeader);

/** The body of a successful answer, or an ApiError built from the error body. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = (typeof result.error === 'object' && result.error !== null ? result.error : {}) as { code?: string; message?: string | string[]; field?: string };
  const message = Array.isArray(body.message) ? body.message.join('; ') : (body.message ?? i18next.t('error.answered', { status: result.response.status }));
  throw new ApiError(result.response.status, body.code ?? 'error', message, body.field, body as Record<string, unknown>);
}

/** A new Idempotency-Key: one per intended action, so a repeated click replays the first answer instead of acting twice. */
export function newIdempotencyKey(): string {
  return `console-${crypto.randomUUID()}`;
}
