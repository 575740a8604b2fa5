import { redactText } from '../common/logging/redact';
import type { ProviderOperation } from './provider-operation';

/**
 * What a failed provider call means for the caller:
 * - invalid_request: 400; the provider refused the request (see `code`, `providerMessage`).
 * - unauthorized: 401 (and 403): the credential was refused.
 * - not_found: 404.
 * - conflict: 409; the externalID was already used with other parameters (see `externalID`, `conflictingId`).
 * - business_rule: 422 from the Wallet API (e.g. "Destination unauthorized").
 * - not_executed: 503, or the connection was refused / the host not resolved: nothing happened, safe to retry.
 * - unknown_outcome: 504, any other 5xx, a timeout, a connection reset mid-call or an unreadable 2xx body:
 *   the effect MAY have happened; resolve it by repeating with the same externalID or by reading the object.
 * - unexpected: anything else (3xx, 429 and other 4xx, a request that could not be built).
 */
export type ProviderErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'business_rule'
  | 'not_executed'
  | 'unknown_outcome'
  | 'unexpected';

export interface ProviderErrorDetails {
  kind: ProviderErrorKind;
  operation: ProviderOperation;
  httpStatus?: number;
  /** Provider error code: CAPI `code` or Wallet API `errorType`. */
  code?: string;
  /** Provider's own explanation: CAPI/422 `message`, Wallet API 400 `name: description`, 404 `message`. */
  providerMessage?: string;
  /** 409: the externalID that was reused. */
  externalID?: string;
  /** 409: the id of the object that already holds that externalID. */
  conflictingId?: string;
  /** Transport failure code such as ECONNRESET, ECONNREFUSED, ETIMEDOUT. */
  networkCode?: string;
  /** Short human description of a transport failure ("timed out after 500 ms"). */
  reason?: string;
  /** X-Request-ID of the attempt that produced this error, to quote to the provider. */
  requestId?: string;
  /** HTTP attempts made for this call, this one included. */
  attempts?: number;
  /** Only for `unexpected`: whether the request can be proven not to have been applied (a 4xx, or never sent). */
  notApplied?: boolean;
  cause?: ProviderError;
}

const NOT_APPLIED_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'invalid_request',
  'unauthorized',
  'not_found',
  'conflict',
  'business_rule',
  'not_executed',
]);

const MAX_MESSAGE_PART = 300;

/** A provider call that did not return its result. Never carries credentials, card data or request bodies. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly operation: ProviderOperation;
  readonly httpStatus?: number;
  readonly code?: string;
  readonly providerMessage?: string;
  readonly externalID?: string;
  readonly conflictingId?: string;
  readonly networkCode?: string;
  readonly requestId?: string;
  readonly attempts: number;
  private readonly notApplied: boolean;

  constructor(details: ProviderErrorDetails) {
    const providerMessage = details.providerMessage === undefined ? undefined : clip(redactText(details.providerMessage));
    const code = details.code === undefined ? undefined : clip(redactText(details.code));
    super(describe({ ...details, providerMessage, code }), details.cause ? { cause: details.cause } : undefined);
    this.kind = details.kind;
    this.operation = details.operation;
    this.httpStatus = details.httpStatus;
    this.code = code;
    this.providerMessage = providerMessage;
    this.externalID = details.externalID;
    this.conflictingId = details.conflictingId;
    this.networkCode = details.networkCode;
    this.requestId = details.requestId;
    this.attempts = details.attempts ?? 1;
    this.notApplied = NOT_APPLIED_KINDS.has(details.kind) || (details.kind === 'unexpected' && details.notApplied === true);
  }

  /**
   * An idempotent write first saw an unknown outcome and then a definite error: the definite error may be a
   * consequence of the first attempt having been applied (e.g. "invoice payment pending"), so the call as a
   * whole stays unknown.
   */
  static stillUnknown(last: ProviderError): ProviderError {
    return new ProviderError({
      kind: 'unknown_outcome',
      operation: last.operation,
      httpStatus: last.httpStatus,
      code: last.code,
      providerMessage: last.providerMessage,
      networkCode: last.networkCode,
      reason: `an earlier attempt's outcome is unknown; the last attempt ended in ${last.kind}`,
      requestId: last.requestId,
      attempts: last.attempts,
      cause: last,
    });
  }

  /** True when the provider certainly did not apply the call: a definite refusal, or a request it never executed. */
  get isDefinitelyNotApplied(): boolean {
    return this.notApplied;
  }

  /** True when the effect may have happened: look the object up (or repeat with the same externalID) before acting. */
  get isOutcomeUnknown(): boolean {
    return !this.notApplied;
  }

  /** True when the same call may succeed later without any change: 503/connection refused, unknown outcomes, 429. */
  get isTransient(): boolean {
    return this.kind === 'not_executed' || this.kind === 'unknown_outcome' || this.httpStatus === 429;
  }
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_PART ? `${text.slice(0, MAX_MESSAGE_PART)}…` : text;
}

function describe(d: ProviderErrorDetails): string {
  const parts = [`Provider call ${d.operation} failed: ${d.kind}`];
  if (d.httpStatus !== undefined) parts.push(`(HTTP ${d.httpStatus})`);
  if (d.networkCode !== undefined) parts.push(`(${d.networkCode})`);
  if (d.code !== undefined) parts.push(`[${d.code}]`);
  if (d.providerMessage !== undefined && d.providerMessage !== '') parts.push(JSON.stringify(d.providerMessage));
  if (d.externalID !== undefined) {
    parts.push(`externalID ${JSON.stringify(d.externalID)}${d.conflictingId ? ` already used by ${JSON.stringify(d.conflictingId)}` : ''}`);
  }
  if (d.reason !== undefined) parts.push(`- ${d.reason}`);
  const trail = [`attempts: ${d.attempts ?? 1}`];
  if (d.requestId !== undefined) trail.unshift(`X-Request-ID ${d.requestId}`);
  return `${parts.join(' ')} (${trail.join(', ')})`;
}
