import type { LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import axios, { AxiosInstance, isAxiosError } from 'axios';
import { WebhookTargetPolicy } from './webhook-target-policy';
import { WebhookTargetRefusedError } from './webhook-target-refused.error';
import { WebhookTuning } from './webhook-tuning';

/** What one POST to a merchant answered. */
export interface WebhookHttpResult {
  /** The HTTP status; null when none came (timeout, refused, reset, target refused). */
  status: number | null;
  durationMs: number;
  /**
   * What failed, as a fixed code: `http_<status>`, `timeout`, `connection_refused`, `connection_reset`,
   * `dns_failed`, `tls_failed`, `host_unreachable`, `connection_failed`, or `target_refused: <why>`. Never what the
   * receiver answered: an endpoint must not become a way to read another service's replies. Null on 2xx.
   */
  error: string | null;
}

const USER_AGENT = 'recurring-billing-daemon-webhooks/1';

/**
 * Merchant HTTP, kept apart from provider HTTP (src/gateway): its own sockets, no retries here (the delivery queue
 * retries on its schedule), no redirects followed, no proxy, the whole exchange bounded by the timeout, and no
 * response body read. Every connection goes to an address the target rules allow: the agents resolve the host
 * themselves and refuse the connection when any address it has is forbidden, so a name that resolves elsewhere
 * between the check and the send (DNS rebinding) cannot reach inside the network.
 */
@Injectable()
export class WebhookHttpClient implements OnModuleDestroy {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly http: AxiosInstance;

  constructor(
    private readonly tuning: WebhookTuning,
    private readonly policy: WebhookTargetPolicy,
  ) {
    const lookup = this.checkedLookup();
    this.httpAgent = new http.Agent({ keepAlive: true, timeout: 4_000, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, timeout: 4_000, lookup });
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
    // Checked again at every send: the rules or the allow-list may have changed since the endpoint was saved, and a
    // literal address never goes through the resolver below.
    const refused = this.policy.problemWithUrl(url);
    if (refused !== null) return { status: null, durationMs: 0, error: `target_refused: ${refused}` };
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
      response.data.destroy();
      const ok = response.status >= 200 && response.status <= 299;
      return { status: response.status, durationMs: elapsed(), error: ok ? null : `http_${response.status}` };
    } catch (error) {
      return { status: null, durationMs: elapsed(), error: deadlineHit ? 'timeout' : transportError(error) };
    } finally {
      clearTimeout(deadline);
    }
  }

  /** net's `lookup` hook: every address of the host is resolved and checked, and only checked addresses are connected to. */
  private checkedLookup(): LookupFunction {
    return (hostname, options, callback) => {
      this.tuning
        .lookupHost(hostname)
        .then((addresses) => {
          const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
          if (wanted.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          for (const { address } of wanted) {
            const problem = this.policy.problemWithAddress(address, hostname);
            if (problem !== null) throw new WebhookTargetRefusedError(problem);
          }
          if (options.all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
          else callback(null, wanted[0].address, wanted[0].family);
        })
        .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
    };
  }
}

const TRANSPORT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  ECONNABORTED: 'timeout',
  ETIMEDOUT: 'timeout',
  ENOTFOUND: 'dns_failed',
  EAI_AGAIN: 'dns_failed',
  EHOSTUNREACH: 'host_unreachable',
  ENETUNREACH: 'host_unreachable',
  ERR_INVALID_URL: 'invalid_url',
};

/** A fixed description: axios errors carry the request (headers, signature, body), none of which may be kept. */
function transportError(error: unknown): string {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof WebhookTargetRefusedError) return cause.message;
  }
  const code = isAxiosError(error) ? ((error.cause as { code?: string } | undefined)?.code ?? error.code) : undefined;
  if (code === undefined) return 'connection_failed';
  if (TRANSPORT_CODES[code]) return TRANSPORT_CODES[code];
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'tls_failed';
  return 'connection_failed';
}
