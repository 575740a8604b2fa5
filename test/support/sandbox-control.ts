import axios, { AxiosInstance, AxiosResponse, Method } from 'axios';
import type { SandboxDelays } from '../../src/sandbox/sandbox-config';
import type { ProviderOperation } from '../../src/sandbox/sandbox-operations';
import type { FaultKind, FaultRule } from '../../src/sandbox/services/faults.service';
import type { Ledger } from '../../src/sandbox/services/ledger.service';
import type { LoggedRequest } from '../../src/sandbox/services/request-log.service';
import type { SandboxSettings } from '../../src/sandbox/services/sandbox-control.service';
import type { DeliveryStatus, WebhookApi, WebhookDelivery } from '../../src/sandbox/state/webhook-state';

export type { FaultKind, FaultRule } from '../../src/sandbox/services/faults.service';
export type { Ledger, LedgerPayment, LedgerRefund, LedgerWithdrawal } from '../../src/sandbox/services/ledger.service';
export type { LoggedRequest } from '../../src/sandbox/services/request-log.service';
export type { ProviderOperation } from '../../src/sandbox/sandbox-operations';
export type { WebhookDelivery } from '../../src/sandbox/state/webhook-state';

/** A fault rule to add: the sandbox answers it with an id and then counts its hits. */
export interface FaultInput {
  /** Absent: every provider operation. */
  operation?: ProviderOperation;
  kind: FaultKind;
  latencyMs?: number;
  count?: number;
  probability?: number;
}

/**
 * The sandbox's own routes under /sandbox (no credential): reset, ledger, faults, request log, scripted outcomes,
 * token expiry, settings, webhook deliveries, and the payer-facing pages (hosted form, 3-D Secure ACS page). The
 * typed helpers fail on any unexpected status; `send` answers whatever came back, for tests about the control API
 * itself.
 */
export class SandboxControl {
  private readonly http: AxiosInstance;

  constructor(readonly url: string) {
    this.http = axios.create({ baseURL: `${url}/sandbox/`, validateStatus: () => true, timeout: 30_000 });
  }

  /** One request to /sandbox/<path> (path may carry a query string); never throws on a status. */
  send<T = unknown>(method: Method, path: string, body?: unknown): Promise<AxiosResponse<T>> {
    return this.http.request<T>({ method, url: path, data: body });
  }

  /** Forgets state, pending steps, faults, scripted outcomes and the request log. */
  async reset(): Promise<void> {
    await this.expect('POST', 'reset', undefined, 204);
  }

  /** Every money movement the sandbox simulated, oldest first. */
  ledger(): Promise<Ledger> {
    return this.expect('GET', 'ledger', undefined, 200);
  }

  /** Adds a fault rule; answers its id. */
  async addFault(rule: FaultInput): Promise<string> {
    return (await this.expect<{ id: string }>('POST', 'faults', rule, 201)).id;
  }

  /** The rules in force, with how often each fired. */
  faults(): Promise<FaultRule[]> {
    return this.expect('GET', 'faults', undefined, 200);
  }

  async clearFaults(): Promise<void> {
    await this.expect('DELETE', 'faults', undefined, 204);
  }

  /** The provider requests the sandbox logged (of one operation when given), oldest first. */
  requests(operation?: ProviderOperation): Promise<LoggedRequest[]> {
    return this.expect('GET', operation ? `requests?operation=${operation}` : 'requests', undefined, 200);
  }

  /** The next payments of this customer end in these outcomes, in order, whatever the card. */
  async scriptOutcomes(customerID: string, outcomes: string[]): Promise<void> {
    await this.expect('POST', 'outcomes', { customerID, outcomes }, 204);
  }

  /** Expires every access token (customer and invoice), as days passing would. */
  async expireTokens(): Promise<void> {
    await this.expect('POST', 'expire-tokens', undefined, 204);
  }

  /**
   * Ends the wait of every open 3-D Secure check (or only that of `bindingID`) now, as its `threeDsTimeoutMs` running
   * out would; answers how many it ended.
   */
  async expireThreeDs(bindingID?: string): Promise<number> {
    return (await this.expect<{ expired: number }>('POST', 'expire-three-ds', bindingID === undefined ? undefined : { bindingID }, 200)).expired;
  }

  async setDelays(delays: Partial<SandboxDelays>): Promise<SandboxSettings> {
    return this.expect('POST', 'config', { delays }, 200);
  }

  /** Scales the provider's webhook retry schedule (1 = the real one, 0.001 = a thousand times faster). */
  async setWebhookRetryScale(webhookRetryScale: number): Promise<SandboxSettings> {
    return this.expect('POST', 'config', { webhookRetryScale }, 200);
  }

  /** The sandbox's record of webhook deliveries, oldest first: each event for each webhook, its body and every attempt. */
  webhookDeliveries(filter: { api?: WebhookApi; webhookID?: string; status?: DeliveryStatus } = {}): Promise<WebhookDelivery[]> {
    const query = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    return this.expect('GET', query ? `webhook-deliveries?${query}` : 'webhook-deliveries', undefined, 200);
  }

  /** The hosted card form as the payer's browser opens it (a link without a token when none is given). */
  openHostedForm(customerID: string, customerAccessToken?: string): Promise<AxiosResponse<string>> {
    return this.http.get<string>('hosted-form', { params: { customerID, customerAccessToken }, responseType: 'text' });
  }

  /** The hosted card form as the payer's browser submits it; `followRedirects: false` answers a redirect (to the ACS page) itself. */
  submitHostedForm(fields: Record<string, string>, options: { followRedirects?: boolean } = {}): Promise<AxiosResponse<string>> {
    return this.http.post<string>('hosted-form', new URLSearchParams(fields).toString(), {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      responseType: 'text',
      ...(options.followRedirects === false ? { maxRedirects: 0 } : {}),
    });
  }

  /** The test bank's 3-D Secure (ACS) page, posted to as a binding's redirect does; `form` is url-encoded. */
  submitAcsPage(form: string): Promise<AxiosResponse<string>> {
    return this.http.post<string>('acs', form, { responseType: 'text' });
  }

  /** The ACS page as a browser follows a link to it, such as the hosted form's redirect (`/sandbox/acs?MD=...`). */
  openAcsLink(link: string): Promise<AxiosResponse<string>> {
    if (!link.startsWith('/sandbox/acs')) throw new Error(`${link} is not a link to the ACS page`);
    return this.http.get<string>(link.slice('/sandbox/'.length), { responseType: 'text' });
  }

  /** The payer pressing Confirm on the ACS page with these fields (MD, PaReq and whatever else the page had). */
  confirmAcs(fields: Record<string, string>): Promise<AxiosResponse<string>> {
    return this.http.post<string>('acs/confirm', new URLSearchParams(fields).toString(), {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      responseType: 'text',
    });
  }

  private async expect<T>(method: Method, path: string, body: unknown, status: number): Promise<T> {
    const res = await this.send<T>(method, path, body);
    if (res.status !== status) throw new Error(`sandbox control ${method} /sandbox/${path} answered ${res.status}, expected ${status}: ${JSON.stringify(res.data)}`);
    return res.data;
  }
}
