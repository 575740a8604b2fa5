import { createHash, randomBytes } from 'node:crypto';

/** `bk_` and the base64url of 32 random bytes: 46 characters. */
export const API_KEY_PATTERN = /^bk_[A-Za-z0-9_-]{43}$/;

export function newApiKeySecret(): string {
  return `bk_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a key: its SHA-256 (hex). A fast hash is enough for 256 random bits: there is nothing to guess. */
export function apiKeyHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
