import { createHash } from 'node:crypto';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** JSON with sorted keys, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/**
 * Which records a key belongs to: the route the router chose (method and template, never the path as
 * spelled) and its parameters, so `/api/v1/payouts`, `/api/v1/payouts/` and `/API/v1/Payouts` share keys.
 * UUID parameters are compared without regard to letter case, as the database compares them.
 */
export function idempotencyScopeHash(method: string, routeTemplate: string, params: Record<string, string | string[]>, key: string): string {
  const normalized = Object.keys(params)
    .sort()
    .map((name) => {
      const value = [params[name]].flat().join('/');
      return [name, UUID.test(value) ? value.toLowerCase() : value];
    });
  return sha256(canonicalJson([method.toUpperCase(), routeTemplate, normalized, key]));
}

/**
 * The card fields that are never fingerprinted whole: a card number keeps only what the daemon stores
 * anyway (bin and last four), a CVV nothing. With so few unknown digits a hash of the full number could be
 * reversed from the database alone, whatever key it was made with.
 */
function withoutCardSecrets(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withoutCardSecrets);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'cvv') continue;
    out[key] = key === 'cardNumber' && typeof child === 'string' ? `${child.slice(0, 6)}…${child.slice(-4)}` : withoutCardSecrets(child);
  }
  return out;
}

/**
 * The stored fingerprint of a body: plain SHA-256, depending on nothing but the body, so rotating the
 * admin token or the provider API key never turns a genuine retry into a 409.
 */
export function idempotencyBodyHash(body: unknown): string {
  return sha256(canonicalJson(withoutCardSecrets(body ?? null)));
}
