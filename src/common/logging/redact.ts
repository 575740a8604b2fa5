import { IncomingMessage, ServerResponse } from 'node:http';

/** Keys whose values never reach a log line, whatever object they sit in. */
const SECRET_KEY = /^(authorization|cookie|set-cookie|x-api-key|apikey|api_key|password|secret|cardnumber|card_number|pan|cvv|cvc|cvv2|token|payload|accesstoken|access_token|customeraccesstoken|invoiceaccesstoken|paymenttooltoken|paymentsession|cardtoken|authdata|admintoken|providerapikey)$/i;
/** 12..19 digits, possibly grouped by spaces or dashes: the shape of a card number. */
const PAN_LIKE = /\b\d(?:[ -]?\d){11,18}\b/g;
/** Bearer credentials inside free text (error messages, URLs). */
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Passwords inside connection URLs (postgres://user:secret@host). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/gi;

export const REDACTED = '[REDACTED]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A copy of `value` with every secret key's value set to null (for storage, where a marker would mislead). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? null : withoutSecrets(v)]));
}

/** Masks card-number shapes and bearer credentials in free text. */
export function redactText(text: string): string {
  return text.replace(PAN_LIKE, REDACTED).replace(BEARER, `$1${REDACTED}`).replace(URL_PASSWORD, `$1${REDACTED}@`);
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
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}
