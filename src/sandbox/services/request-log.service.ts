import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { maskCardNumber } from '../cards/card-checks';
import type { ProviderOperation } from '../sandbox-operations';

export interface LoggedRequest {
  operation: ProviderOperation;
  method: string;
  /** Path and query string as received. */
  path: string;
  headers: {
    authorization: string | null;
    'content-type': string | null;
    'x-request-id': string | null;
    'cache-control': string | null;
  };
  /** Parsed JSON body (the raw text when it was not JSON); card numbers masked and CVVs removed. */
  body: unknown;
  /** Response status; null while in flight or when a fault destroyed the connection. */
  status: number | null;
  /** The fault injected into this request, if any. */
  fault?: string;
  receivedAt: string;
}

export const REQUEST_LOG_CAPACITY = 2000;

/** Operations whose bodies carry card data; only these are copied and redacted. */
const CARD_DATA_OPERATIONS: ReadonlySet<ProviderOperation> = new Set<ProviderOperation>(['createPaymentResource', 'tokenizeBankCard']);

/**
 * The last provider requests, for contract tests that check what a client sent. Memory only, never
 * written to a log: it holds bearer credentials.
 */
@Injectable()
export class RequestLogService {
  private entries: LoggedRequest[] = [];
  private next = 0;

  record(operation: ProviderOperation, req: Request, body: unknown): LoggedRequest {
    const entry: LoggedRequest = {
      operation,
      method: req.method,
      path: req.originalUrl,
      headers: {
        authorization: header(req, 'authorization'),
        'content-type': header(req, 'content-type'),
        'x-request-id': header(req, 'x-request-id'),
        'cache-control': header(req, 'cache-control'),
      },
      body: CARD_DATA_OPERATIONS.has(operation) ? redactCardData(body) : body,
      status: null,
      receivedAt: new Date().toISOString(),
    };
    if (this.entries.length < REQUEST_LOG_CAPACITY) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % REQUEST_LOG_CAPACITY;
    return entry;
  }

  /** Oldest first; `limit` keeps the most recent ones. */
  list(operation?: string, limit?: number): LoggedRequest[] {
    const ordered = this.entries.length < REQUEST_LOG_CAPACITY ? this.entries : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    const matching = operation ? ordered.filter((entry) => entry.operation === operation) : ordered;
    return limit !== undefined ? matching.slice(Math.max(0, matching.length - limit)) : matching.slice();
  }

  clear(): void {
    this.entries = [];
    this.next = 0;
  }
}

function header(req: Request, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The sandbox never keeps a CVV or a full card number, not even in its request log. */
function redactCardData(value: unknown, depth = 0): unknown {
  if (depth > 6 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactCardData(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'cvv') out[key] = '***';
    else if (key === 'cardNumber' && typeof v === 'string') out[key] = maskCardNumber(v);
    else out[key] = redactCardData(v, depth + 1);
  }
  return out;
}
