/**
 * The closed set of machine-readable `code` values an error body carries: the status each comes with, what it
 * means, and a message it may come with. Clients branch on `code` (and `field`), never on `message`, which is
 * written for people and may be reworded. The API description is generated from this list, so a new code is
 * added here first.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    meaning: 'A body field, query parameter, path parameter or header is missing, malformed, out of range or not allowed; `field` names the first, `fields` all of them.',
    example: ['lines.0.price must not be less than 1'],
  },
  invalid_json: {
    status: 400,
    meaning: 'The body is not valid JSON in UTF-8, or its top level is not a JSON object.',
    example: ['The request body is not valid JSON: Unexpected end of JSON input'],
  },
  body_too_deep: {
    status: 400,
    meaning: 'The body nests objects and arrays deeper than 32 levels.',
    example: ['The request body nests objects and arrays deeper than 32 levels'],
  },
  malformed_request: {
    status: 400,
    meaning: 'The request could not be read at all (a body cut short, a path that does not decode).',
    example: "Failed to decode param '%E0%A4%A'",
  },
  unauthorized: {
    status: 401,
    meaning: 'The header `Authorization: Bearer <ADMIN_TOKEN or API key>` is missing, or the token or key is wrong, expired or revoked.',
    example: 'Missing or wrong credential: send Authorization: Bearer <ADMIN_TOKEN or API key>',
  },
  insufficient_scope: {
    status: 403,
    meaning: 'The API key (or the console signed in with it) lacks the scope this route needs; `scope` names it. A key is never made with a scope its creator lacks.',
    example: 'This credential lacks the scope plans:write, which this route needs',
  },
  rate_limited: {
    status: 429,
    meaning: 'Too many requests with this credential (API_RATE_LIMIT, counted across every replica), or too many failed sign-ins from this address; nothing was done. Retry after `Retry-After` seconds.',
    example: 'Too many requests with this credential: at most 100 a second; retry in 1 s',
  },
  not_found: {
    status: 404,
    meaning: 'The id names no object of this kind (or payouts are not set up yet).',
    example: 'plan 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e not found',
  },
  route_not_found: { status: 404, meaning: 'No route answers this method and path.', example: 'Cannot GET /api/v1/plan' },
  test_clock_disabled: {
    status: 404,
    meaning: 'The test clock routes only answer when the daemon runs with TEST_CLOCK=true.',
    example: 'The test clock is off: start the daemon with TEST_CLOCK=true (never in production)',
  },
  subscription_not_changeable: {
    status: 409,
    meaning: 'The subscription cannot change plan or quantity now: it is not active or trialing (collect a past_due one first), or a change or a charge of its current period is in flight.',
    example: 'Subscription 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e is past_due: collect its charge before changing it',
  },
  state_conflict: {
    status: 409,
    meaning: 'The current state of the object forbids the action (retrying a succeeded charge, resuming an active subscription, moving the test clock backwards).',
    example: 'Only a paused subscription can be resumed; this one is active',
  },
  charge_not_refundable: {
    status: 409,
    meaning: 'Only a `succeeded` charge can be refunded; this one is not (it is pending, processing, retrying, failed, canceled or skipped).',
    example: 'Charge 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e is retrying: only a succeeded charge can be refunded',
  },
  charge_already_paid: {
    status: 409,
    meaning: 'The charge is `succeeded`: a recovery link has nothing to collect.',
    example: 'Charge 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e is paid: there is nothing to recover',
  },
  charge_not_recoverable: {
    status: 409,
    meaning: 'Only a declined charge (`retrying` or `failed`) gets a recovery link; this one is pending, processing, canceled or skipped.',
    example: 'Charge 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e is pending: only a declined charge (retrying or failed) has something to recover',
  },
  recovery_links_unavailable: {
    status: 422,
    meaning: 'Recovery links are off: with a real provider (PROVIDER_URL) they need PROVIDER_CHECKOUT_URL, the provider\'s card form.',
    example: "Recovery links need PROVIDER_CHECKOUT_URL (the provider's card form) when PROVIDER_URL is set",
  },
  refund_reference_taken: {
    status: 409,
    meaning: 'The refund `reference` already names another refund, asked for with another request (`refundId` names it).',
    example: ['reference crm-ticket-4711 is taken by refund 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e, asked for with another request'],
  },
  idempotency_key_reused: {
    status: 409,
    meaning: 'This Idempotency-Key was already used on this route with another body.',
    example: 'This Idempotency-Key was used with another request body',
  },
  idempotency_key_in_progress: {
    status: 409,
    meaning: 'The first request with this Idempotency-Key is still running; retry later.',
    example: 'A request with this Idempotency-Key is still in progress; retry later',
  },
  payout_reference_taken: {
    status: 409,
    meaning: 'The payout `reference` already names another payout, made with another body (`payoutId` names it); in a batch, the items whose references are taken are listed.',
    example: ['reference invoice-2027-0042 is taken by payout 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e, made with another body'],
  },
  customer_not_ready: {
    status: 409,
    meaning: "The customer has no card to charge yet (status `unready`): bind one first, or add the lines to a subscription's next renewal (`when: next_renewal`).",
    example: "Customer 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e has no card to charge yet: bind one, or add the lines to a subscription's next renewal",
  },
  charge_reference_taken: {
    status: 409,
    meaning: 'The `reference` of a one-off charge already names another one-off charge (`chargeId`) or pending item (`pendingItemId`), made with another body.',
    example: ['reference order-2027-0042 is taken by one-off charge 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e, made with another body'],
  },
  provider_conflict: {
    status: 409,
    meaning: 'The provider already holds the object this daemon creates, made with other parameters.',
    example: 'The provider already holds p3f2b8c1e4d5a4b6c8d7e9f0a1b2c3d4e with other parameters',
  },
  payload_too_large: { status: 413, meaning: 'The body is larger than 1 MiB.', example: 'The request body is larger than 1048576 bytes (1 MiB)' },
  unsupported_media_type: {
    status: 415,
    meaning: 'The body is not sent as `Content-Type: application/json` (with charset utf-8, if any).',
    example: 'Content-Type text/plain is not supported: send JSON with Content-Type: application/json',
  },
  unsupported_encoding: {
    status: 415,
    meaning: 'The body is compressed (a Content-Encoding other than identity); send it as is.',
    example: 'Content-Encoding gzip is not supported: send the body uncompressed',
  },
  business_rule: {
    status: 422,
    meaning: "The input is well-formed but a business rule refuses it (an archived plan, an expired card, another currency than the wallet's, an unknown destination).",
    example: 'plan 3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e is archived: subscribe to an active plan',
  },
  refund_exceeds_charge: {
    status: 422,
    meaning:
      "The refund would take more than the charge left to refund (`refundable` says how much is left this way): the sum of a charge's refunds never exceeds what was paid, and the part the credit balance paid goes back only to the balance.",
    example: 'The refund of 3000 exceeds what is left to refund to the card: 2500 RUB',
  },
  coupon_invalid: {
    status: 422,
    meaning: 'No active coupon has this code: it is unknown, archived, or past its `redeemBy`.',
    example: 'no active coupon has the code SPRING50',
  },
  coupon_exhausted: {
    status: 422,
    meaning: "The coupon was redeemed its `maxRedemptions` times (counted exactly across replicas).",
    example: 'coupon SPRING50 was redeemed its 50 times',
  },
  coupon_not_applicable: {
    status: 422,
    meaning: "The coupon does not apply to the subscription's plan: the plan is not in its `appliesToPlans`, or an amount-off coupon is in another currency than the plan.",
    example: 'coupon SPRING50 takes USD off; the plan bills RUB',
  },
  first_time_only: {
    status: 422,
    meaning: 'The coupon is for customers who have never paid, and this customer has (a succeeded charge).',
    example: 'coupon WELCOME is for customers who have never paid; this one has',
  },
  provider_refused: {
    status: 422,
    meaning: 'The provider refused the data passed on to it; `providerCode` holds its own code when it gave one.',
    example: 'The provider refused to start the binding (invalidPaymentToolToken)',
  },
  internal_error: {
    status: 500,
    meaning: 'An unexpected error; nothing about it is answered, the daemon log has the details.',
    example: 'Internal server error; see the daemon log',
  },
  provider_error: {
    status: 502,
    meaning: "The provider answered unexpectedly or refused the daemon's credentials.",
    example: 'The provider answered unexpectedly; could not create the customer',
  },
  database_unavailable: {
    status: 503,
    meaning: 'The database cannot be reached right now, and this request changed nothing (a read, or a write that failed before anything it sent could commit); retry shortly.',
    example: 'The database is unavailable; nothing was done. Retry shortly.',
  },
  outcome_unknown: {
    status: 503,
    meaning:
      'The connection to the database was lost after this request sent a change that may have committed: the change may have been made. Repeat with the same Idempotency-Key to get the first answer (meanwhile a 409 `idempotency_key_in_progress`: repeat later), or look the object up (a payout by its `reference`) before sending the request again.',
    example: 'The database connection was lost after the change was sent: it may have been made. Repeat with the same Idempotency-Key, or look the object up, before sending it again.',
  },
  provider_unavailable: {
    status: 503,
    meaning: 'The provider cannot be reached right now; nothing was done, retry later.',
    example: 'The provider is unavailable; nothing was done. Retry later.',
  },
  service_unavailable: {
    status: 503,
    meaning: 'The daemon cannot answer this right now (for example while metrics cannot be read); retry shortly.',
    example: 'metrics unavailable',
  },
  provider_timeout: {
    status: 504,
    meaning: 'The provider did not answer in time, so the outcome is unknown; repeating the same request is safe.',
    example: 'The provider did not answer in time; whether it managed to create the customer is unknown',
  },
  http_error: {
    status: null,
    meaning: 'Any other refusal the HTTP layer makes on its own; the status code says which.',
    example: 'Method Not Allowed',
  },
} as const satisfies Record<string, { status: number | null; meaning: string; example: string | readonly string[] }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];
