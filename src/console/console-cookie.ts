import type { Request } from 'express';
import { CONSOLE_SESSION_SECONDS } from './console-session.service';

/** The cookie that carries a console session id; Path=/ so the admin API under /api/v1 receives it too. */
export const CONSOLE_COOKIE = 'console_session';

/** The header every console request carries: the admin API takes the cookie only together with it. */
export const CONSOLE_HEADER = 'x-console';

/** The session id in the request's cookie, if any. */
export function readConsoleCookie(request: Request): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === CONSOLE_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Served over https (directly, behind a proxy that says so, or with an https PUBLIC_URL): the cookie is then Secure. */
export function isHttps(request: Request, publicUrl: string | undefined): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return request.secure || proto === 'https' || (publicUrl?.toLowerCase().startsWith('https:') ?? false);
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure over https. */
export function consoleCookie(value: string, secure: boolean, maxAgeSeconds = CONSOLE_SESSION_SECONDS): string {
  return [`${CONSOLE_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
}

/**
 * Whether the browser says the request came from another site: a console call is always same-origin. Browsers send
 * Sec-Fetch-Site and Origin on the requests that matter; a client that sends neither has no cookie jar to abuse.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() !== (request.headers.host ?? '').toLowerCase();
  } catch {
    return true;
  }
}
