import type { PaymentError, WithdrawalFailure } from './provider-api.types';

/** A failure as any provider shape gives it: a nested payment/withdrawal error or a flat `{code, message}`. */
export type ProviderFailure = PaymentError | WithdrawalFailure | { code: string; message?: string };

/** Deeper nesting than the provider's error tree ever has (four levels) means a malformed body. */
const MAX_DEPTH = 16;

/**
 * The full failure code as one string, most general first:
 * `{code:'authorization_failed', subError:{code:'insufficient_funds'}}` → 'authorization_failed:insufficient_funds'.
 * A failure without any code (absent, or an empty code) is 'unknown', the provider's own catch-all.
 */
export function failureCodePath(error?: ProviderFailure): string {
  const codes: string[] = [];
  let node: unknown = error;
  while (node !== null && typeof node === 'object' && codes.length < MAX_DEPTH) {
    const code = (node as { code?: unknown }).code;
    if (typeof code !== 'string' || code.trim() === '') break;
    codes.push(code.trim());
    node = (node as { subError?: unknown }).subError;
  }
  return codes.length === 0 ? 'unknown' : codes.join(':');
}
