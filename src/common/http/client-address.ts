import type { Request } from 'express';

/**
 * The client's address as the connection shows it (no X-Forwarded-For is trusted: any client could write one). Behind
 * a reverse proxy every client shares the proxy's address.
 */
export function clientAddress(request: Request): string {
  return request.socket?.remoteAddress ?? request.ip ?? 'unknown';
}
