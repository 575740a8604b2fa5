/**
 * The closed set of machine-readable `code` values an error body carries, with the status each comes with and
 * what it means. Clients branch on `code`, never on `message` (which is for people and may be reworded).
 * The API description and the docs are generated from this list, so a new code is added here first.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    meaning: 'A body field, query parameter, path parameter or header is missing, malformed, out of range or not allowed; `field` names the first, `fields` all of them.',
  },
  invalid_json: { status: 400, meaning: 'The body is not valid JSON in UTF-8, or its top level is not a JSON object.' },
  body_too_deep: { status: 400, meaning: 'The body nests objects and arrays deeper than 32 levels.' },
  malformed_request: { status: 400, meaning: 'The request could not be read at all (a body cut short, a path that does not decode).' },
  unauthorized: { status: 401, meaning: 'The header `Authorization: Bearer <ADMIN_TOKEN>` is missing or the token is wrong.' },
  not_found: { status: 404, meaning: 'The id names no object of this kind (or payouts are not set up yet).' },
  route_not_found: { status: 404, meaning: 'No route answers this method and path.' },
  test_clock_disabled: { status: 404, meaning: 'The test clock routes only exist when the daemon runs with TEST_CLOCK=true.' },
  state_conflict: {
    status: 409,
    meaning: 'The current state of the object forbids the action (for example retrying a succeeded charge, resuming an active subscription, moving the test clock backwards).',
  },
  idempotency_key_reused: { status: 409, meaning: 'This Idempotency-Key was already used on this route with another body.' },
  idempotency_key_in_progress: { status: 409, meaning: 'The first request with this Idempotency-Key is still running; retry later.' },
  provider_conflict: { status: 409, meaning: 'The provider already holds the object this daemon creates, made with other parameters.' },
  payload_too_large: { status: 413, meaning: 'The body is larger than 1 MiB.' },
  unsupported_media_type: { status: 415, meaning: 'The body is not sent as `Content-Type: application/json` (charset, if given, utf-8).' },
  unsupported_encoding: { status: 415, meaning: 'The body is compressed (a Content-Encoding other than identity); send it as is.' },
  business_rule: {
    status: 422,
    meaning: 'The input is well-formed but a business rule refuses it (an archived plan, an expired card, another currency than the wallet\'s, an unknown destination).',
  },
  provider_refused: { status: 422, meaning: 'The provider refused the data passed on to it; `providerCode` holds its own code when it gave one.' },
  internal_error: { status: 500, meaning: 'An unexpected error; nothing about it is answered, the daemon log has the details.' },
  provider_error: { status: 502, meaning: 'The provider answered unexpectedly or refused the daemon\'s credentials.' },
  database_unavailable: { status: 503, meaning: 'The database cannot be reached right now; nothing was done, retry shortly.' },
  provider_unavailable: { status: 503, meaning: 'The provider cannot be reached right now; nothing was done, retry later.' },
  service_unavailable: { status: 503, meaning: 'The daemon cannot answer this right now (for example while metrics cannot be read); retry shortly.' },
  provider_timeout: { status: 504, meaning: 'The provider did not answer in time, so the outcome is unknown; repeating the same request is safe.' },
  http_error: { status: null, meaning: 'Any other refusal the HTTP layer makes on its own; the status code says which.' },
} as const satisfies Record<string, { status: number | null; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];
