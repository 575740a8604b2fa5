import type { TFunction } from 'i18next';

/** What describeApiError reads of an ApiError (client.ts), named here so that the catalog checks can run it in Node. */
export interface ApiErrorFields {
  status: number;
  code: string;
  message: string;
  field?: string;
  details: Record<string, unknown>;
}

/**
 * An API error in the console's language. The daemon's `message` is English and may be reworded, so the console
 * speaks from the stable `code` (and the `field` it names, in the form's words where the catalog knows it); a code
 * the catalog does not know yet shows the daemon's own message rather than nothing.
 */
export function describeApiError(error: ApiErrorFields, t: TFunction, exists: (key: string) => boolean): { message: string; field: string | null; translated: boolean } {
  const lookup = t as unknown as (key: string, values?: Record<string, unknown>) => string;
  const field = error.field ? fieldLabel(error.field, lookup, exists) : null;
  const key = error.code === 'validation_failed' && field === null ? 'apiError.validation_failedAny' : `apiError.${error.code}`;
  if (!exists(key)) return { message: error.message, field, translated: false };
  const scope = typeof error.details.scope === 'string' ? error.details.scope : '';
  return { message: lookup(key, { field, scope, status: error.status }), field, translated: true };
}

/** `lines.0.price` → the catalog's "Price" (apiField.lines.price); a field it does not know stays as the API names it. */
function fieldLabel(field: string, lookup: (key: string) => string, exists: (key: string) => boolean): string {
  const key = `apiField.${field.replace(/\.\d+(?=\.|$)/g, '')}`;
  return exists(key) ? lookup(key) : field;
}
