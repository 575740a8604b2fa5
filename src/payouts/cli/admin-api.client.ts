import axios, { AxiosError, AxiosHeaders, AxiosInstance, AxiosRequestConfig, isAxiosError } from 'axios';
import axiosRetry, { exponentialDelay, isNetworkError, isRetryableError } from 'axios-retry';
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

export interface AdminApiClientOptions {
  /** How long one request may take; a batch of 10,000 payouts is stored in one go. */
  timeoutMs?: number;
  /** Retries of a safe request after a network failure, a timeout, a 429 or a 5xx. */
  retries?: number;
  /** First backoff; it doubles with each retry (plus up to 20 % jitter, or the server's Retry-After). */
  retryDelayMs?: number;
}

const DEFAULTS: Required<AdminApiClientOptions> = { timeoutMs: 60_000, retries: 5, retryDelayMs: 250 };

/**
 * Only a request that cannot act twice is repeated: a read, or a POST carrying an Idempotency-Key (the daemon
 * answers a repeat with the first answer). A timeout counts as a failure worth repeating for those.
 */
export function isSafeToRetry(error: AxiosError): boolean {
  const method = error.config?.method?.toUpperCase();
  const keyed = method === 'POST' && AxiosHeaders.from(error.config?.headers ?? {}).has('Idempotency-Key');
  if (method !== 'GET' && method !== 'HEAD' && !keyed) return false;
  return isNetworkError(error) || isRetryableError(error) || error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
}

/** The few admin API calls the payout import makes, over axios with retries (axios-retry) and a timeout. */
export class AdminApiClient {
  private readonly baseUrl: string;
  private readonly http: AxiosInstance;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, token: string, options: AdminApiClientOptions = {}) {
    const settings = { ...DEFAULTS, ...options };
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = settings.timeoutMs;
    this.http = axios.create({
      baseURL: this.baseUrl,
      timeout: settings.timeoutMs,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      // The daemon is addressed directly, as before with fetch: no HTTP(S)_PROXY from the environment.
      proxy: false,
    });
    axiosRetry(this.http, {
      retries: settings.retries,
      retryCondition: isSafeToRetry,
      retryDelay: (retryCount, error) => exponentialDelay(retryCount, error, settings.retryDelayMs / 2),
      // Each try gets the whole timeout.
      shouldResetTimeout: true,
    });
  }

  /** POST /api/v1/payouts/batches; the key makes a repeat (a re-run of the same file) answer the first batch. */
  async createBatch(items: PayoutCsvItem[], idempotencyKey: string): Promise<PayoutBatchResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request<PayoutBatchResponse>({ method: 'POST', url: '/api/v1/payouts/batches', data: { items }, headers: { 'Idempotency-Key': idempotencyKey } });
      } catch (error) {
        const inProgress = error instanceof AdminApiError && error.status === 409 && /in progress/i.test(error.message);
        if (!inProgress || attempt >= 60) throw error;
        await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_RETRY_MS));
      }
    }
  }

  getBatch(id: string): Promise<PayoutBatchResponse> {
    return this.request<PayoutBatchResponse>({ method: 'GET', url: `/api/v1/payouts/batches/${encodeURIComponent(id)}` });
  }

  /** Every failed payout of a batch, page by page. */
  async failedPayouts(batchId: string): Promise<PayoutResponse[]> {
    const all: PayoutResponse[] = [];
    let cursor: string | null = null;
    do {
      const params = { batchId, status: 'failed', limit: 200, ...(cursor ? { cursor } : {}) };
      const page: { items: PayoutResponse[]; nextCursor: string | null } = await this.request({ method: 'GET', url: '/api/v1/payouts', params });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  private async request<T>(config: AxiosRequestConfig & { method: 'GET' | 'POST'; url: string }): Promise<T> {
    try {
      return (await this.http.request<T>(config)).data;
    } catch (error) {
      throw this.failure(config, error);
    }
  }

  /** What went wrong, after the retries, as the command line shows it. */
  private failure(config: { method: string; url: string }, error: unknown): Error {
    if (!isAxiosError(error)) return error instanceof Error ? error : new Error(String(error));
    const request = `${config.method} ${config.url.split('?')[0]}`;
    if (error.response) return new AdminApiError(error.response.status, `${request} answered ${error.response.status}: ${describeError(error.response.data)}`);
    if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') {
      return new AdminApiError(0, `${request}: the daemon at ${this.baseUrl} did not answer within ${this.timeoutMs} ms`);
    }
    return new AdminApiError(0, `cannot reach the daemon at ${this.baseUrl}: ${error.message}`);
  }
}

/** The daemon's `message` (a list is joined); any other body as it is, cut short. */
function describeError(body: unknown): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return (typeof body === 'string' ? body : JSON.stringify(body ?? '')).slice(0, 500);
}
