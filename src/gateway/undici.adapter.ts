import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import type { Dispatcher } from 'undici';
import { ExchangeDeadlineError } from './exchange-deadline.error';

/** What the transport needs of the client: everything axios itself would only pass through. */
export interface UndiciTransportOptions {
  /** An undici Agent: the keep-alive connections, per origin, that every call shares. */
  dispatcher: Dispatcher;
  /** Bounds the whole exchange, body included; then it ends with ExchangeDeadlineError. */
  timeoutMs: number;
  /** The longest answer read; a longer one ends the exchange. */
  maxResponseBytes: number;
  /** Sent on every request as given, whatever axios adds (it sets a form content type on a POST that has none). */
  fixedHeaders: Readonly<Record<string, string>>;
}

/** A failure of the exchange, with the code the error mapper classifies. */
function exchangeError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * One exchange, as undici's dispatcher drives it. A class rather than closures: one allocation per call, and the
 * dispatcher calls its methods directly (undici wraps handlers written to its newer controller interface).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private settled = false;
  private abortExchange: ((reason?: Error) => void) | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private status = 0;
  private statusText = '';
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly config: InternalAxiosRequestConfig,
    private readonly maxResponseBytes: number,
    private readonly resolve: (response: AxiosResponse<string>) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  startDeadline(timeoutMs: number): void {
    if (timeoutMs > 0 && !this.settled) this.deadline = setTimeout(() => this.fail(new ExchangeDeadlineError(timeoutMs)), timeoutMs);
  }

  /** Called just before the request is written: a call that already failed (its deadline passed in the queue) is never sent. */
  onConnect(abort: (reason?: Error) => void): void {
    if (this.settled) return abort(exchangeError('the exchange ended before it was sent', 'UND_ERR_ABORTED'));
    this.abortExchange = abort;
  }

  onHeaders(statusCode: number, _headers: Buffer[], _resume: () => void, statusText: string): boolean {
    this.status = statusCode;
    this.statusText = statusText;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxResponseBytes) {
      this.fail(exchangeError(`the response is larger than ${this.maxResponseBytes} bytes`, 'ERR_BAD_RESPONSE'));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.finish();
    const data = this.chunks.length === 1 ? this.chunks[0].toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.resolve({ data, status: this.status, statusText: this.statusText, headers: {}, config: this.config });
  }

  onError(error: Error): void {
    if (this.settled) return;
    this.finish();
    // undici's word for a connection that closed under a written request; node:net's (and the mapper's) is ECONNRESET.
    const closed = (error as { code?: unknown }).code === 'UND_ERR_SOCKET';
    this.reject(closed ? exchangeError('the connection closed before the whole response arrived', 'ECONNRESET') : error);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.finish();
    this.reject(error);
    this.abortExchange?.(error);
  }

  private finish(): void {
    this.settled = true;
    clearTimeout(this.deadline);
  }
}

/**
 * The provider client's transport: axios with this adapter over undici's HTTP/1.1 client instead of axios' own
 * adapter over node:http. The gateway's calls need nothing of what axios' adapter adds (redirects, proxies,
 * decompression, progress events, form data, streams): the body is a JSON string both ways. undici parses with
 * llhttp as node:http does, but without its per-request objects and stream machinery: measured alone, 64 calls in
 * flight to a local server, it spent about 50 µs of CPU per call against node:http's 80.
 *
 * axios copies, flattens and sanitizes every config key and every header of every call, request and answer alike, so
 * what never changes per call stays out of it: the connections, the deadline, the size limit and the fixed headers
 * are this transport's own options, and the answer's headers are not handed back (the client reads none).
 *
 * What it keeps of axios' contract for this client: the URL is the base URL joined with the relative path (an
 * absolute path cannot change the host), every status resolves (the client judges it), and the body is read as UTF-8
 * text. The deadline bounds the whole exchange, a socket kept busy byte by byte included; it is the one way an
 * exchange ends early (no `signal`: an AbortController per call measured several per cent of the client's CPU). A
 * request whose deadline passes while it waits for a connection is never written. A connection that closes under a
 * written request rejects with ECONNRESET, as node:http's would; other failures reject with the errors of node:net
 * and undici (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, UND_ERR_INVALID_ARG, …), which never carry the request's headers.
 */
export function undiciAdapter(options: UndiciTransportOptions): AxiosAdapter {
  const fixedNames = new Set(Object.keys(options.fixedHeaders).map((name) => name.toLowerCase()));
  const fixed = Object.entries(options.fixedHeaders).flat();
  return (config: InternalAxiosRequestConfig) =>
    new Promise<AxiosResponse<string>>((resolve, reject) => {
      const base = (config.baseURL ?? '').replace(/\/+$/, '');
      let url: URL;
      try {
        url = new URL(`${base}/${(config.url ?? '').replace(/^\/+/, '')}`);
      } catch (error) {
        return reject(error as Error);
      }
      const headers = fixed.slice();
      for (const [name, value] of Object.entries(config.headers.toJSON(true) as Record<string, string>)) {
        if (!fixedNames.has(name.toLowerCase())) headers.push(name, value);
      }
      const exchange = new Exchange(config, options.maxResponseBytes, resolve, reject);
      options.dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: (config.method ?? 'get').toUpperCase() as Dispatcher.HttpMethod,
          headers,
          body: typeof config.data === 'string' ? config.data : undefined,
        },
        exchange,
      );
      exchange.startDeadline(options.timeoutMs);
    });
}
