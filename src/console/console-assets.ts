import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm run build` writes the console (vite.config.ts beside console/): the same path from src/ and dist/. */
export const CONSOLE_ASSETS_DIR = join(__dirname, '..', '..', 'dist', 'public', 'console');

/** The placeholder in index.html that each answer replaces with its own CSP nonce (read by the app for its styles). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Hashed build output: the only files served besides index.html. */
const ASSET_NAME = /^\/assets\/[A-Za-z0-9._-]+\.(js|css|svg|png|woff2?)$/;

/**
 * Nothing but this origin: scripts only from files (no inline script, no eval), styles from files or carrying this
 * answer's nonce (the component library writes its CSS variables in a <style> element), no frames, no other host.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function setSecurityHeaders(response: Response, nonce: string): void {
  response.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/**
 * Serves the operator console at /console: its hashed assets, and index.html for /console and every deep link under
 * it (the app routes in the browser). Plain router middleware like the API description: the files hold no data and
 * no secret, and every call the app makes goes to the admin API, which needs a session. Only GET and HEAD; any other
 * method falls through to the routes (POST/DELETE /console/session) or their 404.
 */
export function serveConsole(app: INestApplication, dir = CONSOLE_ASSETS_DIR): void {
  let indexHtml: string | undefined;
  app.use('/console', (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    // The session's state is a route of its own (ConsoleSessionController), not a page of the app.
    if (/^\/session\/?$/i.test(request.path)) return next();
    const nonce = randomBytes(16).toString('base64');
    setSecurityHeaders(response, nonce);
    if (ASSET_NAME.test(request.path)) {
      response.sendFile(request.path.slice(1), { root: dir, dotfiles: 'deny', immutable: true, maxAge: '365d' }, (error?: Error) => {
        if (error && !response.headersSent) response.status(404).type('text/plain').send('No such console file');
      });
      return;
    }
    if (request.path.startsWith('/assets/')) return void response.status(404).type('text/plain').send('No such console file');
    indexHtml ??= existsSync(join(dir, 'index.html')) ? readFileSync(join(dir, 'index.html'), 'utf8') : undefined;
    response.setHeader('Cache-Control', 'no-store');
    if (indexHtml === undefined) {
      response.status(503).type('text/plain').send('The operator console is not built: run `npm run build`, then restart the daemon.');
      return;
    }
    response.status(200).type('html').send(indexHtml.replaceAll(NONCE_PLACEHOLDER, nonce));
  });
}
