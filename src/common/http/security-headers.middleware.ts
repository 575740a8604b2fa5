import type { NextFunction, Request, Response } from 'express';
import { API_DOCS_PATH } from '../api-docs/api-description';

/**
 * The API's browser view (Swagger UI) is where an operator pastes a token: no other origin may frame it (clickjacking)
 * or inject script into it. Its page loads script only from its own files; its styles include inline ones, and its
 * icons are data: URIs.
 */
const API_DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const isApiDocs = (path: string) => path === API_DOCS_PATH || path.startsWith(`${API_DOCS_PATH}/`);

/**
 * Headers on every answer: `nosniff`, so a JSON answer that echoes a merchant's text (a plan's name, metadata) is never
 * run as a page or script by a browser that guesses types; on /docs, a policy that refuses frames and foreign script.
 * The console sets its own, stricter policy (console-assets.ts).
 */
export function securityHeadersMiddleware() {
  return (request: Request, response: Response, next: NextFunction): void => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (isApiDocs(request.path)) {
      response.setHeader('Content-Security-Policy', API_DOCS_POLICY);
      response.setHeader('X-Frame-Options', 'DENY');
      response.setHeader('Referrer-Policy', 'no-referrer');
    }
    next();
  };
}
