import axios, { AxiosInstance, AxiosResponse, Method } from 'axios';
import { request as httpRequest } from 'node:http';
import type {
  Customer,
  CustomerAndToken,
  CustomerBinding,
  CustomerChange,
  CustomerEvent,
  Destination,
  Identity,
  InvoiceAndToken,
  Payment,
  PaymentResourceResult,
  Wallet,
  Withdrawal,
} from '../../../src/gateway/provider-api.types';
import { SandboxHandle, startSandbox, SandboxOptions } from '../../../src/sandbox/sandbox-server';

export const API_KEY = 'sandbox-test-api-key';
export const SHOP_ID = 'shop-1';
/** Short but non-zero: every asynchronous step still goes through a real timer. */
export const FAST_DELAYS = { bindingMs: 5, paymentMs: 5, authorizeDestinationMs: 20, withdrawalMs: 10, threeDsTimeoutMs: 1000 };
/** An expiry date far enough ahead for every test run. */
export const EXP_DATE = '12/39';

export interface CallOptions {
  body?: unknown;
  /** Bearer credential; null sends no Authorization header. Default: the API key. */
  token?: string | null;
  /** null sends no X-Request-ID. */
  requestId?: string | null;
  headers?: Record<string, string>;
}

let requestCounter = 0;

/** A client of one embedded sandbox, speaking the provider API the way a well-behaved gateway does. */
export class SandboxClient {
  private readonly http: AxiosInstance;

  private constructor(
    readonly handle: SandboxHandle,
    readonly url: string,
  ) {
    this.http = axios.create({ baseURL: url, validateStatus: () => true, timeout: 10_000 });
  }

  static async start(options: Partial<SandboxOptions> = {}): Promise<SandboxClient> {
    const handle = await startSandbox({ port: 0, apiKey: API_KEY, quiet: true, delays: FAST_DELAYS, ...options });
    return new SandboxClient(handle, handle.url);
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  call<T = unknown>(method: Method, path: string, options: CallOptions = {}): Promise<AxiosResponse<T>> {
    const headers: Record<string, string> = { 'Cache-Control': 'no-cache', ...options.headers };
    const token = options.token === undefined ? API_KEY : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    const requestId = options.requestId === undefined ? `req-${++requestCounter}` : options.requestId;
    if (requestId !== null) headers['X-Request-ID'] = requestId;
    if (options.body !== undefined && headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
    return this.http.request<T>({
      method,
      url: path,
      headers,
      data: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      // Send bodies exactly as given (axios would re-encode a string that is not valid JSON).
      transformRequest: [(data: unknown) => data],
      // Keep bodies as text so empty bodies stay observable as ''.
      transformResponse: (data: unknown) => parseMaybeJson(data),
    });
  }

  // ---- control API ----

  async reset(): Promise<void> {
    expect((await this.http.post('/sandbox/reset')).status).toBe(204);
  }

  async ledger(): Promise<LedgerView> {
    return (await this.http.get<LedgerView>('/sandbox/ledger')).data;
  }

  async addFault(rule: Record<string, unknown>): Promise<string> {
    const res = await this.http.post<{ id: string }>('/sandbox/faults', rule);
    expect(res.status).toBe(201);
    return res.data.id;
  }

  control<T = unknown>(method: Method, path: string, body?: unknown): Promise<AxiosResponse<T>> {
    return this.http.request<T>({ method, url: `/sandbox/${path}`, data: body });
  }

  // ---- recurring-charge helpers ----

  async createCustomer(overrides: Record<string, unknown> = {}): Promise<CustomerAndToken> {
    const res = await this.call<CustomerAndToken>('POST', '/v2/processing/customers', {
      body: { shopID: SHOP_ID, contactInfo: { email: 'payer@example.com', phoneNumber: '+79990001122' }, metadata: {}, ...overrides },
    });
    expect(res.status).toBe(201);
    return res.data;
  }

  async tokenize(cardNumber: string, expDate = EXP_DATE, token: string | null = API_KEY): Promise<PaymentResourceResult> {
    const res = await this.call<PaymentResourceResult>('POST', '/v2/processing/payment-resources', {
      token,
      body: { paymentTool: { paymentToolType: 'CardData', cardNumber, expDate, cvv: '123', cardHolder: 'JOHN DOE' }, clientInfo: { fingerprint: 'fp-1' } },
    });
    expect(res.status).toBe(201);
    return res.data;
  }

  /** Starts a binding of this card; answers the 201 binding (pending). */
  async startBinding(customerID: string, cardNumber: string, extra: Record<string, unknown> = {}): Promise<CustomerBinding> {
    const resource = await this.tokenize(cardNumber);
    const res = await this.call<CustomerBinding>('POST', `/v2/processing/customers/${customerID}/bindings`, {
      body: { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession }, ...extra },
    });
    expect(res.status).toBe(201);
    return res.data;
  }

  async finalBinding(customerID: string, bindingID: string): Promise<CustomerBinding> {
    return eventually(
      async () => (await this.call<CustomerBinding>('GET', `/v2/processing/customers/${customerID}/bindings/${bindingID}`)).data,
      (b) => b.status !== 'pending',
    );
  }

  /** Binds a card to the end, passing 3-D Secure as a payer would when the card's issuer asks for it. */
  async bindCard(customerID: string, cardNumber: string): Promise<CustomerBinding> {
    const binding = await this.startBinding(customerID, cardNumber);
    await this.passThreeDs(customerID, binding.id);
    return this.finalBinding(customerID, binding.id);
  }

  /** The redirect the provider asked for to bind this binding, if it asked for one. */
  async interactionOf(customerID: string, bindingID: string): Promise<Extract<CustomerChange, { changeType: 'CustomerBindingInteractionRequested' }> | undefined> {
    const events = await this.call<CustomerEvent[]>('GET', `/v2/processing/customers/${customerID}/events?limit=1000`);
    return events.data
      .flatMap((e) => e.changes)
      .find((c): c is Extract<CustomerChange, { changeType: 'CustomerBindingInteractionRequested' }> => c.changeType === 'CustomerBindingInteractionRequested' && c.customerBindingID === bindingID);
  }

  /** Opens the ACS page the way a browser follows the redirect: a form POST, or a GET. */
  async openAcs(customerID: string, bindingID: string): Promise<AxiosResponse<string>> {
    const change = await this.interactionOf(customerID, bindingID);
    if (!change) throw new Error(`binding ${bindingID} asked for no interaction`);
    const request = change.userInteraction.request;
    if (request.requestType === 'BrowserGetRequest') return this.http.get<string>(request.uriTemplate, { responseType: 'text' });
    // Template expressions ({?termination_uri}) expand to nothing when no value is given (RFC 6570).
    const form = new URLSearchParams(request.form.map((f): [string, string] => [f.key, f.template.replace(/\{[^}]*\}/g, '')]));
    return this.http.post<string>(request.uriTemplate, form.toString(), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, responseType: 'text' });
  }

  /** Does what the payer does on the ACS page: press Confirm. Undefined when the binding needs no 3-D Secure. */
  async passThreeDs(customerID: string, bindingID: string): Promise<AxiosResponse<string> | undefined> {
    if (!(await this.interactionOf(customerID, bindingID))) return undefined;
    const page = await this.openAcs(customerID, bindingID);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.data)?.[1] ?? '';
    const form = new URLSearchParams({ MD: field('MD'), PaReq: field('PaReq') });
    return this.http.post<string>('/sandbox/acs/confirm', form.toString(), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, responseType: 'text' });
  }

  async getCustomer(customerID: string): Promise<Customer> {
    return (await this.call<Customer>('GET', `/v2/processing/customers/${customerID}`)).data;
  }

  /** A customer with a successfully bound card. */
  async readyCustomer(cardNumber = '4242424242424242', overrides: Record<string, unknown> = {}): Promise<Customer> {
    const { customer } = await this.createCustomer(overrides);
    const binding = await this.bindCard(customer.id, cardNumber);
    expect(binding.status).toBe('succeeded');
    return this.getCustomer(customer.id);
  }

  async createInvoice(overrides: Record<string, unknown> = {}): Promise<InvoiceAndToken> {
    const res = await this.call<InvoiceAndToken>('POST', '/v2/processing/invoices', { body: invoiceParams(overrides) });
    expect(res.status).toBe(201);
    return res.data;
  }

  pay(invoiceID: string, invoiceToken: string, customerID: string, extra: Record<string, unknown> = {}): Promise<AxiosResponse<Payment>> {
    return this.call<Payment>('POST', `/v1/processing/invoices/${invoiceID}/payments`, {
      token: invoiceToken,
      body: { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID }, ...extra },
    });
  }

  async finalPayment(invoiceID: string, paymentID: string): Promise<Payment> {
    return eventually(
      async () => (await this.call<Payment>('GET', `/v2/processing/invoices/${invoiceID}/payments/${paymentID}`)).data,
      (p) => p.status === 'captured' || p.status === 'failed',
    );
  }

  // ---- payout helpers ----

  async createIdentity(body: Record<string, unknown> = {}): Promise<Identity> {
    const res = await this.call<Identity>('POST', '/wallet/v0/identities', { body: { name: 'Acme LLC', provider: 'test', class: 'person', ...body } });
    expect(res.status).toBe(201);
    return res.data;
  }

  async createWallet(identityID: string, currency = 'RUB'): Promise<Wallet> {
    const res = await this.call<Wallet>('POST', '/wallet/v0/wallets', { body: { name: 'Corporate', identity: identityID, currency } });
    expect(res.status).toBe(201);
    return res.data;
  }

  async cardToken(cardNumber: string): Promise<string> {
    const res = await this.call<{ token: string }>('POST', '/payres/v0/bank-cards', {
      body: { type: 'BankCard', cardNumber, expDate: EXP_DATE, cardHolder: 'JANE ROE', cvv: '123' },
    });
    expect(res.status).toBe(201);
    return res.data.token;
  }

  async createDestination(identityID: string, cardNumber: string, currency = 'RUB'): Promise<Destination> {
    const token = await this.cardToken(cardNumber);
    const res = await this.call<Destination>('POST', '/wallet/v0/destinations', {
      body: { name: 'Payee card', identity: identityID, currency, resource: { type: 'BankCardDestinationResource', token } },
    });
    expect(res.status).toBe(201);
    return res.data;
  }

  async authorizedDestination(identityID: string, cardNumber: string, currency = 'RUB'): Promise<Destination> {
    const destination = await this.createDestination(identityID, cardNumber, currency);
    return eventually(
      async () => (await this.call<Destination>('GET', `/wallet/v0/destinations/${destination.id}`)).data,
      (d) => d.status === 'Authorized',
    );
  }

  async finalWithdrawal(withdrawalID: string): Promise<Withdrawal> {
    return eventually(
      async () => (await this.call<Withdrawal>('GET', `/wallet/v0/withdrawals/${withdrawalID}`)).data,
      (w) => w.status !== 'Pending',
    );
  }
}

export interface LedgerView {
  payments: {
    invoiceID: string;
    paymentID: string;
    customerID: string;
    amount: number;
    currency: string;
    status: string;
    externalID?: string;
    invoiceExternalID?: string;
    invoiceMetadata: Record<string, unknown>;
    createdAt: string;
    capturedAt?: string;
  }[];
  bindingCharges: { customerID: string; bindingID: string; amount: number; currency: string; refunded: boolean }[];
  withdrawals: {
    withdrawalID: string;
    walletID: string;
    destinationID: string;
    amount: number;
    currency: string;
    status: string;
    externalID?: string;
    failure?: unknown;
    createdAt: string;
  }[];
}

export function invoiceParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shopID: SHOP_ID,
    dueDate: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
    amount: 1500,
    currency: 'RUB',
    product: 'Monthly plan',
    metadata: { subscriptionId: 'sub-1' },
    ...overrides,
  };
}

/** Polls `read` until `done` holds; fails the test with the last value after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    last = await read();
  }
  return last;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface RawOutcome {
  status?: number;
  body?: string;
  /** Set when the connection failed instead of answering (e.g. ECONNRESET). */
  error?: string;
}

/** One request on a fresh connection, reporting a reset instead of throwing, so tests can observe it. */
export function rawRequest(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: {
          Authorization: `Bearer ${API_KEY}`,
          'X-Request-ID': `raw-${++requestCounter}`,
          ...(payload !== undefined ? { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(payload)) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function parseMaybeJson(data: unknown): unknown {
  if (typeof data !== 'string' || data === '') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
