import type { KeyHolder } from './credentials';

/**
 * What the admin guard asks of API keys: the live key whose secret a request presents. The api-keys module provides
 * it (`ApiKeysService`), so the common module names no domain module.
 */
export abstract class ApiKeyVerifier {
  /** The live key (not revoked, not expired) whose secret this is, or null. */
  abstract authenticate(secret: string): Promise<KeyHolder | null>;
}
