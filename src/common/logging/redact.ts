import { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Keys whose values never reach a log line, whatever object they sit in; compared without case, `_`, `-` or
 * spaces, so `customer_access_token`, `api-key` and `X-Api-Key` are all caught.
 */
const SECRET_KEYS = new Set([
  'authorization', 'proxyauthorization', 'cookie', 'setcookie', 'xapikey', 'apikey', 'password', 'passwd', 'secret', 'clientsecret',
  'cardnumber', 'pan', 'cvv', 'cvc', 'cvv2', 'cvc2', 'token', 'payload', 'authdata', 'paymentsession', 'privatekey', 'signature',
]);
/** Any key ending so is a secret too (accessToken, paymentToolToken, webhookSecret, providerApiKey, …). */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'apikey'];
/** 12..19 digits, possibly grouped by spaces or dashes, even glued to letters or underscores. */
const PAN_LIKE = /(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g;
/** UUIDs are ids, never card numbers: set aside before card shapes are looked for. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** Bearer and Basic credentials inside free text (error messages, URLs). */
const CREDENTIAL = /(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Standard Webhooks signing secrets, wherever they turn up in text. */
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9+/=_-]+/g;
/** An admin API key (`bk_` and 43 base64url characters), wherever it appears. */
const API_KEY = /\bbk_[A-Za-z0-9_-]{43}/g;
const isApiKeyText = (value: unknown) => typeof value === 'string' && /^bk_[A-Za-z0-9_-]{43}$/.test(value);

/** A recovery link's token (`/pay/<link id>.<MAC>`): the link id stays, the MAC that makes it usable does not. */
const RECOVERY_TOKEN = /(\/pay\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.)[A-Za-z0-9_-]+/gi;

/** Passwords inside connection URLs (postgres://user:secret@host). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/gi;

/** A query parameter inside a URL (`?customerAccessToken=…`): masked when its name is a secret's. */
const QUERY_PARAMETER = /([?&;])([A-Za-z0-9_.~%-]+)=([^&#\s"'<>]*)/g;

/**
 * A card number has a card network's first digit and passes the Luhn check; an amount or an id rarely both. The
 * networks: 2 (Mir, Mastercard 2-series), 3 to 6 (Amex, Visa, Mastercard, Maestro, UnionPay…) and 9 (national
 * schemes such as HUMO 9860, which payouts accept, and NAPAS 9704).
 */
function looksLikeCard(digits: string): boolean {
  if (!/^[2-69]/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const REDACTED = '[REDACTED]';

export function isSecretKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_\s]/g, '');
  return SECRET_KEYS.has(normalized) || SECRET_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

/**
 * An http(s) URL without its secret query parameters (a hosted form link carries a customer access token): the
 * link as someone without the token may see it. Any other text is returned as it is.
 */
function withoutSecretQueryParameters(text: string): string {
  if (!/^https?:\/\//i.test(text) || !text.includes('?')) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const secrets = [...new Set(url.searchParams.keys())].filter(isSecretKey);
  if (secrets.length === 0) return text;
  for (const name of secrets) url.searchParams.delete(name);
  return url.toString();
}

/**
 * A copy of `value` with every secret key's value set to null and secret query parameters taken out of URLs (for
 * storage, where a marker would mislead).
 */
export function withoutSecrets(value: unknown): unknown {
  // A recovery link is usable by whoever holds it: never kept (a replay answers null, as for an access token).
  if (typeof value === 'string') return new RegExp(RECOVERY_TOKEN.source, 'i').test(value) ? null : withoutSecretQueryParameters(value);
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSecretKey(k) || isApiKeyText(v) ? null : withoutSecrets(v)]));
}

/**
 * Masks card numbers, Bearer and Basic credentials, URL passwords and secret query parameters in free text; UUIDs
 * and amounts stay.
 */
export function redactText(text: string): string {
  const uuids: string[] = [];
  const masked = text.replace(UUID, (uuid) => `\uE000${uuids.push(uuid) - 1}\uE000`);
  return masked
    .replace(PAN_LIKE, (run) => (looksLikeCard(run.replace(/[ -]/g, '')) ? REDACTED : run))
    .replace(/\uE000(\d+)\uE000/g, (_, i: string) => uuids[Number(i)])
    .replace(RECOVERY_TOKEN, `$1${REDACTED}`)
    .replace(CREDENTIAL, `$1${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(QUERY_PARAMETER, (whole, separator: string, name: string) => (isSecretKey(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : whole))
    .replace(WEBHOOK_SECRET, REDACTED)
    .replace(API_KEY, REDACTED);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A deep copy of `value` with secret keys removed and card numbers masked in every string. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[Truncated]';
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  // HTTP messages go to their own serializers (which keep only method, url and status), untouched here.
  if (value instanceof Date || value instanceof IncomingMessage || value instanceof ServerResponse) return value;
  if (value instanceof Error) {
    return { type: value.name, message: redactText(value.message), stack: value.stack ? redactText(value.stack) : undefined };
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretKey(key) ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}
