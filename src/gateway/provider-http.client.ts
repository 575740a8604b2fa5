import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import axios, { AxiosResponse } from 'axios';
import {
  BulkheadPolicy,
  bulkhead,
  BulkheadRejectedError,
  ExponentialBackoff,
  GeneratorFn,
  handleWhen,
  IExponentialBackoffOptions,
  retry,
  RetryPolicy,
} from 'cockatiel';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { Agent } from 'undici';
import { MetricsService } from '../common/metrics/metrics.service';
import { ExchangeDeadlineError } from './exchange-deadline.error';
import { undiciAdapter } from './undici.adapter';
import { AppConfig } from '../config/app-config';
import { RuntimeSettings } from '../config/runtime-settings';
import { ProviderError, ProviderErrorKind } from './provider-error';
import { AttemptContext, errorFromResponse, errorFromTransport, errorFromUnreadableBody } from './provider-error.mapper';
import type { ProviderOperation } from './provider-operation';
import { DEFAULT_PROVIDER_RETRY_OPTIONS, PROVIDER_RETRY_OPTIONS, ProviderRetryOptions } from './provider-retry.options';

/** One logical provider call; the client may turn it into several HTTP attempts. */
export interface ProviderRequest {
  operation: ProviderOperation;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, path parameters already URL-encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body; never logged nor copied into errors (tokenization bodies hold card data). */
  body?: object;
  /** Bearer credential; the merchant API key when unset (createPayment passes the invoice access token). */
  credential?: string;
  /**
   * True when repeating the call cannot apply its effect twice: a read, or a create carrying an externalID
   * (the provider returns the object it already made). Decides whether an unknown outcome is retried.
   */
  idempotent: boolean;
  /** The JSON shape a 2xx must have; anything else is an unknown outcome. 'none': the body is ignored (204 answers). */
  expect: 'object' | 'array' | 'none';
}

type ProviderResult = 'ok' | ProviderErrorKind;
type Labels = 'operation' | 'result';

/** Idle keep-alive sockets are dropped after this, below the usual 5 s server keep-alive, so we never reuse one the server is closing. */
const FREE_SOCKET_TIMEOUT_MS = 4_000;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** networkCode of the error a call gets when the wait queue for a call slot is full. */
const QUEUE_FULL = 'QUEUE_FULL';
/** The headers of every call but its credential and request id (JSON both ways, on reads too, as the provider asks). */
const FIXED_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-cache',
  Accept: 'application/json',
  'User-Agent': 'recurring-billing-daemon',
} as const;
const BEARER_CREDENTIAL = /^[\x21-\x7e]+$/;

/** Exponential delays (initial, 2×, 4×, … up to the cap) with ±25% jitter so that replicas do not retry in step. */
const jitteredExponential: GeneratorFn<number> = (attempt = 0, options: IExponentialBackoffOptions<number>) => {
  const base = Math.min(options.maxDelay, options.initialDelay * options.exponent ** attempt);
  return [Math.round(base * (0.75 + Math.random() * 0.5)), attempt + 1];
};

/**
 * The only place that speaks HTTP to the provider: one keep-alive axios instance, a per-process cap on calls in
 * flight, fresh X-Request-ID per attempt, classification of every failure into a ProviderError, safe retries
 * and Prometheus metrics.
 *
 * Retries: `not_executed` always; `unknown_outcome` only when the request is idempotent; nothing else.
 * The cap holds a slot per HTTP attempt, not across backoff sleeps.
 */
@Injectable()
export class ProviderHttpClient implements OnModuleDestroy {
  private readonly logger = new Logger(ProviderHttpClient.name);
  private readonly connections: Agent;
  private readonly http: InstanceType<typeof axios.Axios>;
  private readonly timeoutMs: number;
  private readonly apiKey: string;
  private readonly concurrency: BulkheadPolicy;
  private readonly queueLimit: number;
  private readonly retryIdempotent: RetryPolicy;
  private readonly retryNotExecutedOnly: RetryPolicy;
  private readonly maxRetries: number;
  private readonly requestsTotal: Counter<Labels>;
  private readonly requestDuration: Histogram<Labels>;
  private readonly retriesTotal: Counter<Labels>;
  private readonly inFlight: Gauge<never>;
  /** The two series of each operation and result, looked up once: labelling a sample per call hashes its labels. */
  private readonly seriesByOutcome = new Map<string, { duration: Histogram.Internal<Labels>; total: Counter.Internal }>();
  private readonly requestIdPrefix = randomBytes(10).toString('hex');
  private requestCounter = 0;

  constructor(
    config: AppConfig,
    runtime: RuntimeSettings,
    metrics: MetricsService,
    @Optional() @Inject(PROVIDER_RETRY_OPTIONS) retryOptions?: ProviderRetryOptions,
  ) {
    const maxSockets = config.providerMaxConcurrency;
    // One connection per call in flight, no pipelining: a request never waits behind another's answer, and a
    // connection that fails takes only its own call's outcome with it.
    this.connections = new Agent({ connections: maxSockets, pipelining: 1, keepAliveTimeout: FREE_SOCKET_TIMEOUT_MS, keepAliveMaxTimeout: FREE_SOCKET_TIMEOUT_MS });
    this.timeoutMs = config.providerTimeoutMs;
    this.apiKey = config.providerApiKey;
    // An Axios of its own rather than axios.create(): create() copies axios' global defaults (per-method header
    // buckets, JSON transforms, form-data environment) into every request's config merge, which measured about half
    // of axios' CPU per call. Its config holds only what axios acts on: no transforms (the request body is already
    // JSON text, and we parse the answer ourselves: an unreadable 2xx is an unknown outcome, not a string result),
    // every status resolves; the rest is the transport's (see undiciAdapter).
    this.http = new axios.Axios({
      baseURL: runtime.providerBaseUrl,
      allowAbsoluteUrls: false,
      validateStatus: () => true,
      // A lean transport over undici's HTTP/1.1 client: no redirects, no proxy (provider calls go direct), one
      // deadline for the whole exchange, body included, and the headers every call sends.
      adapter: undiciAdapter({
        dispatcher: this.connections,
        timeoutMs: this.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        fixedHeaders: FIXED_HEADERS,
      }),
    });

    // Calls beyond the cap wait for a slot, but only so many: when the provider is slow, an unbounded queue
    // would hold every caller's request (and memory) for minutes. Eight waiting per slot absorbs a burst.
    this.queueLimit = Math.max(64, maxSockets * 8);
    this.concurrency = bulkhead(maxSockets, this.queueLimit);
    const options = retryOptions ?? DEFAULT_PROVIDER_RETRY_OPTIONS;
    this.maxRetries = options.maxRetries;
    const backoff = () =>
      new ExponentialBackoff({ generator: jitteredExponential, initialDelay: options.initialDelayMs, maxDelay: options.maxDelayMs, exponent: 2 });
    // A full queue is not retried here: the caller gets it at once and backs off by its own rules.
    const isKind = (error: Error, kinds: ProviderErrorKind[]) => error instanceof ProviderError && kinds.includes(error.kind) && error.networkCode !== QUEUE_FULL;
    this.retryIdempotent = retry(handleWhen((e) => isKind(e, ['not_executed', 'unknown_outcome'])), { maxAttempts: options.maxRetries, backoff: backoff() });
    this.retryNotExecutedOnly = retry(handleWhen((e) => isKind(e, ['not_executed'])), { maxAttempts: options.maxRetries, backoff: backoff() });

    this.requestsTotal = metrics.counter({ name: 'billing_provider_requests_total', help: 'HTTP requests to the provider, by operation and result', labelNames: ['operation', 'result'] });
    this.requestDuration = metrics.histogram({
      name: 'billing_provider_request_duration_seconds',
      help: 'Duration of HTTP requests to the provider, by operation and result (queueing for a slot excluded)',
      labelNames: ['operation', 'result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
    this.retriesTotal = metrics.counter({ name: 'billing_provider_retries_total', help: 'Provider requests repeated by the gateway, by operation and the failure repeated', labelNames: ['operation', 'result'] });
    this.inFlight = metrics.gauge({ name: 'billing_provider_requests_in_flight', help: 'HTTP requests to the provider awaiting a response' });
    for (const policy of [this.retryIdempotent, this.retryNotExecutedOnly]) {
      policy.onRetry((event) => {
        if (!('error' in event) || !(event.error instanceof ProviderError)) return;
        this.retriesTotal.inc({ operation: event.error.operation, result: event.error.kind });
        this.logger.warn(`${event.error.message}; retry ${event.attempt} of ${this.maxRetries} in ${Math.round(event.delay)} ms`);
      });
    }
  }

  /**
   * Performs the call and returns the parsed 2xx body, or throws a ProviderError. When every retry is used up the
   * last error is thrown; a write that ever saw an unknown outcome fails as unknown_outcome, whatever came after.
   */
  async call<T>(request: ProviderRequest): Promise<T> {
    const policy = request.idempotent ? this.retryIdempotent : this.retryNotExecutedOnly;
    let sawUnknownOutcome = false;
    try {
      return await policy.execute(async ({ attempt }) => {
        try {
          return await this.concurrency.execute(() => this.send<T>(request, attempt + 1));
        } catch (error) {
          if (error instanceof BulkheadRejectedError) {
            throw new ProviderError({
              kind: 'not_executed',
              operation: request.operation,
              networkCode: QUEUE_FULL,
              reason: `the provider call queue is full (${this.queueLimit} calls already wait for a slot): the provider is slow; nothing was sent, try again later`,
              attempts: attempt + 1,
            });
          }
          if (error instanceof ProviderError && error.kind === 'unknown_outcome') sawUnknownOutcome = true;
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof ProviderError && sawUnknownOutcome && request.method !== 'GET' && error.kind !== 'unknown_outcome') {
        throw ProviderError.stillUnknown(error);
      }
      throw error;
    }
  }

  /** Drops the keep-alive sockets; Nest calls this on shutdown, tests call it directly. */
  close(): void {
    void this.connections.destroy();
  }

  onModuleDestroy(): void {
    this.close();
  }

  /**
   * A fresh X-Request-ID per try: this process's random prefix and a counter, 32 characters at most (the provider's
   * limit). Unique without a call into the random generator per request.
   */
  private nextRequestId(): string {
    this.requestCounter += 1;
    return `${this.requestIdPrefix}${this.requestCounter.toString(36).padStart(12, '0')}`;
  }

  private recordOutcome(operation: ProviderOperation, result: ProviderResult, seconds: number): void {
    const key = `${operation} ${result}`;
    let series = this.seriesByOutcome.get(key);
    if (series === undefined) {
      series = { duration: this.requestDuration.labels({ operation, result }), total: this.requestsTotal.labels({ operation, result }) };
      this.seriesByOutcome.set(key, series);
    }
    series.duration.observe(seconds);
    series.total.inc();
  }

  private async send<T>(request: ProviderRequest, attempts: number): Promise<T> {
    const ctx: AttemptContext = { operation: request.operation, requestId: this.nextRequestId(), attempts };
    const credential = request.credential ?? this.apiKey;
    // A bearer credential is visible ASCII; anything else would be altered on the wire (axios strips CR/LF), so refuse it.
    if (!BEARER_CREDENTIAL.test(credential)) {
      throw new ProviderError({ ...ctx, kind: 'unexpected', reason: 'the credential is empty or not a valid bearer token', notApplied: true });
    }
    let result: ProviderResult = 'unexpected';
    const started = performance.now();
    this.inFlight.inc();
    try {
      let response: AxiosResponse<unknown>;
      try {
        response = await this.http.request<unknown>({
          method: request.method,
          url: withQuery(request.path, request.query),
          data: request.body === undefined ? undefined : JSON.stringify(request.body),
          headers: { Authorization: `Bearer ${credential}`, 'X-Request-ID': ctx.requestId },
        });
      } catch (error) {
        throw errorFromTransport(ctx, error, error instanceof ExchangeDeadlineError ? error.deadlineMs : undefined);
      }
      if (response.status < 200 || response.status > 299) {
        throw errorFromResponse(ctx, response.status, typeof response.data === 'string' ? response.data : '');
      }
      const value = parseBody<T>(ctx, response, request.expect);
      result = 'ok';
      return value;
    } catch (error) {
      result = error instanceof ProviderError ? error.kind : 'unexpected';
      throw error;
    } finally {
      this.inFlight.dec();
      this.recordOutcome(request.operation, result, (performance.now() - started) / 1000);
    }
  }
}

function withQuery(path: string, query: ProviderRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

function parseBody<T>(ctx: AttemptContext, response: AxiosResponse<unknown>, expect: ProviderRequest['expect']): T {
  if (expect === 'none') return undefined as T;
  if (typeof response.data !== 'string') throw errorFromUnreadableBody(ctx, response.status, 'the response has no body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.data);
  } catch {
    throw errorFromUnreadableBody(ctx, response.status, 'the response body is not JSON');
  }
  const shapeOk = expect === 'array' ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  if (!shapeOk) throw errorFromUnreadableBody(ctx, response.status, `the response body is not a JSON ${expect}`);
  return parsed as T;
}
