import { constants, createPublicKey, KeyObject, verify } from 'node:crypto';

/**
 * The provider signs each webhook delivery with RSASSA-PKCS1-v1_5 / SHA-256 over the exact body bytes and sends
 * `Content-Signature: alg=RS256; digest=<signature>`, the signature in URL-safe base64 with `=` padding. The key is
 * the `publicKey` of the webhook's registration: standard base64 of a DER SubjectPublicKeyInfo.
 */

/** A longer header is not a signature of any sane key size; refusing it early keeps the cost bounded. */
const MAX_HEADER_LENGTH = 4096;
/** Exactly one algorithm; the digest in either base64 alphabet, padded or not (published verifiers map `-_` to `+/`). */
const HEADER = /^alg=RS256;[ \t]*digest=([A-Za-z0-9+/_-]+={0,2})$/;
const MAX_CACHED_KEYS = 64;
const parsedKeys = new Map<string, KeyObject | null>();

/** True only when `header` carries a valid RS256 signature of `rawBody` by one of the keys. Never throws. */
export function verifyProviderSignature(rawBody: Buffer, header: string | undefined, publicKeysBase64: string[]): boolean {
  try {
    const signature = parseSignature(header);
    if (!signature || !Buffer.isBuffer(rawBody)) return false;
    for (const encoded of publicKeysBase64) {
      const key = publicKey(encoded);
      if (key && verify('sha256', rawBody, { key, padding: constants.RSA_PKCS1_PADDING }, signature)) return true;
    }
    return false;
  } catch {
    return false;
  }
}

/** The signature bytes of a well-formed header, undefined otherwise. */
export function parseSignature(header: string | undefined): Buffer | undefined {
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return undefined;
  const match = HEADER.exec(header.trim());
  if (!match) return undefined;
  const digest = match[1];
  // Padding belongs at the end only, and never turns a length into one base64 cannot have.
  const unpadded = digest.replace(/=+$/, '');
  if (unpadded.includes('=') || unpadded.length % 4 === 1) return undefined;
  if (digest.length !== unpadded.length && digest.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(unpadded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length > 0 ? bytes : undefined;
}

function publicKey(encoded: string): KeyObject | null {
  if (typeof encoded !== 'string') return null;
  const cached = parsedKeys.get(encoded);
  if (cached !== undefined) return cached;
  let key: KeyObject | null = null;
  try {
    const candidate = createPublicKey({ key: Buffer.from(encoded, 'base64'), format: 'der', type: 'spki' });
    key = candidate.asymmetricKeyType === 'rsa' ? candidate : null;
  } catch {
    key = null;
  }
  if (parsedKeys.size >= MAX_CACHED_KEYS) parsedKeys.delete(parsedKeys.keys().next().value as string);
  parsedKeys.set(encoded, key);
  return key;
}
