import type { PayoutBatchResponse, PayoutResponse } from '../payout-responses';
import type { PayoutCsvItem } from './payout-csv';

/** A refusal or failure answered by the admin API. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** Pause before asking again while the daemon is still handling an earlier request with the same Idempotency-Key. */
const IN_PROGRESS_RETRY_MS = 1_000;

/** The few admin API calls the payout import makes, over the global fetch. */
export class AdminApiClient {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** POST /api/v1/payouts/batches; the key makes a repeat (a re-run of the same file) answer the first batch. */
  async createBatch(items: PayoutCsvItem[], idempotencyKey: string): Promise<PayoutBatchResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request<PayoutBatchResponse>('POST', '/api/v1/payouts/batches', { items }, { 'Idempotency-Key': idempotencyKey });
      } catch (error) {
        const inProgress = error instanceof AdminApiError && error.status === 409 && /in progress/i.test(error.message);
        if (!inProgress || attempt >= 60) throw error;
        await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_RETRY_MS));
      }
    }
  }

  getBatch(id: string): Promise<PayoutBatchResponse> {
    return this.request<PayoutBatchResponse>('GET', `/api/v1/payouts/batches/${encodeURIComponent(id)}`);
  }

  /** Every failed payout of a batch, page by page. */
  async failedPayouts(batchId: string): Promise<PayoutResponse[]> {
    const all: PayoutResponse[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ batchId, status: 'failed', limit: '200', ...(cursor ? { cursor } : {}) });
      const page: { items: PayoutResponse[]; nextCursor: string | null } = await this.request('GET', `/api/v1/payouts?${query.toString()}`);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.token}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new AdminApiError(0, `cannot reach the daemon at ${this.baseUrl}${cause}`);
    }
    const text = await response.text();
    if (!response.ok) throw new AdminApiError(response.status, `${method} ${path.split('?')[0]} answered ${response.status}: ${describeError(text)}`);
    return JSON.parse(text) as T;
  }
}

function describeError(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (Array.isArray(body.message)) return body.message.join('; ');
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: show it as it is
  }
  return text.slice(0, 500);
}
