import type { Request } from 'express';
import type { Credential } from './actor';

/**
 * A credential a request presents other than `Authorization: Bearer`: the operator console's session cookie. The
 * console module provides it and decides when a session stands in for the credential it was opened with, so the
 * common module names no domain module.
 */
export abstract class SessionCredentials {
  /** The session the request carries, if any. */
  abstract sessionOf(request: Request): string | undefined;

  /** The credential the session stands in for; throws UnauthorizedException where it may not. */
  abstract credentialFor(request: Request, session: string): Promise<Credential>;
}
