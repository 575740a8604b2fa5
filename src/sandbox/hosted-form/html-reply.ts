import type { Response } from 'express';
import { randomBytes } from 'node:crypto';

/** A page of the hosted form or the ACS, or a redirect between them (`location`, relative to the sandbox). */
export interface HtmlReply {
  status: number;
  html: string;
  location?: string;
}

/**
 * The form takes card data: it may not be framed (clickjacking), may post only to its own origin, and runs no
 * script at all; its one inline style is allowed by a per-response nonce. Its pages carry access tokens and 3-D
 * Secure secrets, so they stay out of caches and referrers.
 */
export function sendHtml(res: Response, reply: HtmlReply): void {
  const nonce = randomBytes(16).toString('base64');
  res
    .status(reply.status)
    .set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      ...(reply.location !== undefined && { Location: reply.location }),
    })
    .type('html')
    .send(reply.html.replace(/<style>/g, `<style nonce="${nonce}">`));
}
