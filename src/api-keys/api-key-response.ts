import type { ApiKey } from './api-key.entity';

export interface ApiKeyResponse {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdBy: ApiKey['createdBy'];
}

/** The key as every answer shows it: never its secret, which only the creation's answer carries. */
export function toApiKeyResponse(key: ApiKey): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdBy: key.createdBy,
  };
}

/** The creation's answer: the key in clear, this once (null when a replay or a re-run meets a key made before). */
export function toCreatedApiKeyResponse(key: ApiKey, secret: string | null): ApiKeyResponse & { key: string | null } {
  return { ...toApiKeyResponse(key), key: secret };
}
