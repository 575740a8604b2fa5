import { Credential } from './actor';

/** What a credential needs of an API key (the api-keys module's entity has it). */
export interface KeyHolder {
  id: string;
  name: string;
  scopes: string[];
}
import { ADMIN_SCOPE } from './scopes';

/** ADMIN_TOKEN: the root credential, with every scope. */
export const ROOT_CREDENTIAL: Credential = Object.freeze({ actor: Object.freeze({ type: 'admin_token' as const }), scopes: [ADMIN_SCOPE], rateKey: 'admin_token' });

export function apiKeyCredential(key: KeyHolder): Credential {
  return { actor: { type: 'api_key', id: key.id, name: key.name }, scopes: key.scopes, rateKey: `key:${key.id}` };
}

/** The console, signed in with ADMIN_TOKEN (null) or with an API key: the key's scopes, counted under the key. */
export function consoleCredential(key: KeyHolder | null): Credential {
  if (key === null) return { actor: { type: 'console' }, scopes: [ADMIN_SCOPE], rateKey: 'admin_token' };
  return { actor: { type: 'console', id: key.id, name: key.name }, scopes: key.scopes, rateKey: `key:${key.id}` };
}
