import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import axios, { AxiosInstance, isAxiosError } from 'axios';
import { redactText } from '../common/logging/redact';
import { WebhookTuning } from './webhook-tuning';

/** What one POST to a merchant answered. */
export interface WebhookHttpResult {
  /** The HTTP status; null when none came (timeout, refused, reset). */
  status: number | null;
  durationMs: number;
  /** Why it failed, short: a transport error, or the status with the first characters of the body. Null on 2xx. */
  error: string | null;
}

/** Characters of a non-2xx body kept in the attempt's error: enough to tell a proxy's page from a framework's, no more. */
const EXCERPT_CHARS = 120;
const EXCERPT_BYTES = 512;
const USER_AGENT = 'recurring-billing-daemon-webhooks/1';

/**
 * Merchant HTTP, kept apart from provider HTTP (src/gateway): its own sockets, no retries here (the delivery queue
 * retries on its schedule), no redirects followed, the whole exchange bounded by the timeout, and the response body
 * never read beyond a short excerpt of a failure.
 */
@Injectable()
export class WebhookHttpClient implements OnModuleDestroy {
  private readonly httpAgent = new http.Agent({ keepAlive: true, timeout: 4_000 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, timeout: 4_000 });
  private readonly http: AxiosInstance;

  constructor(private readonly tuning: WebhookTuning) {
    this.http = axios.create({
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      proxy: false,
      maxRedirects: 0,
      timeout: tuning.timeoutMs,
      validateStatus: () => true,
      responseType: 'stream',
      transformRequest: [(data: unknown) => data],
    });
  }

  onModuleDestroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<WebhookHttpResult> {
    const started = performance.now();
    const abort = new AbortController();
    let deadlineHit = false;
    const deadline = setTimeout(() => {
      deadlineHit = true;
      abort.abort();
    }, this.tuning.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await this.http.post<Readable>(url, body, {
        headers: { ...headers, 'Content-Type': 'application/json', 'User-Agent': USER_AGENT },
        signal: abort.signal,
      });
      if (response.status >= 200 && response.status <= 299) {
        response.data.destroy();
        return { status: response.status, durationMs: elapsed(), error: null };
      }
      const excerpt = await readExcerpt(response.data);
      return { status: response.status, durationMs: elapsed(), error: `HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}` };
    } catch (error) {
      return { status: null, durationMs: elapsed(), error: deadlineHit ? `no answer within ${this.tuning.timeoutMs} ms` : transportError(error) };
    } finally {
      clearTimeout(deadline);
    }
  }
}

/** The first characters of a body, on one line, with anything that looks like a credential or card number masked. */
async function readExcerpt(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      chunks.push(buffer);
      size += buffer.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    // A body cut short still says what it said so far.
  } finally {
    stream.destroy();
  }
  const text = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').replace(/\uFFFD/g, '').trim();
  const short = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return [...redactText(short)].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join('');
}

/** A fixed description: axios errors carry the request (headers, signature, body), none of which may be kept. */
function transportError(error: unknown): string {
  const code = isAxiosError(error) ? (error.cause as { code?: string } | undefined)?.code ?? error.code : undefined;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return 'no answer in time';
  if (code === 'ERR_INVALID_URL') return 'the URL cannot be requested';
  return code ? `connection failed (${code})` : 'connection failed';
}
