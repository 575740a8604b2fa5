import type { Request } from 'express';
import type { Credential } from './actor';

const credentials = new WeakMap<Request, Credential>();

/** Notes the credential the guard accepted for this request. */
export function setRequestCredential(request: Request, credential: Credential): void {
  credentials.set(request, credential);
}

/** The credential the guard accepted for this request; undefined on a public route. */
export function requestCredential(request: Request): Credential | undefined {
  return credentials.get(request);
}
