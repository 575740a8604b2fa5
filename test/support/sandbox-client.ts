import axios, { AxiosInstance, AxiosResponse, Method } from 'axios';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
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
} from '../../src/gateway/provider-api.types';
import { SandboxHandle, SandboxOptions, startSandbox } from '../../src/sandbox/sandbox-server';
import { rawRequest } from './raw-http';
import { SandboxControl } from './sandbox-control';
import { CARD_EXP_DATE, CARDS } from './test-cards';
import { confirmThreeDs, openAcsPage, PayerPage, redirectOf } from './three-ds-payer';
import { waitFor } from './wait';

/**
 * Short but non-zero: every asynchronous step of the sandbox still goes through a real timer. A 3-D Secure check
 * keeps the sandbox's own wait for the payer (minutes) unless a suite shortens it.
 */
export const FAST_SANDBOX_DELAYS = { bindingMs: 5, paymentMs: 5, captureMs: 0, authorizeDestinationMs: 20, withdrawalMs: 10, refundMs: 5 };

/** A sandbox on a free loopback port, quiet and fast; it accepts SANDBOX_API_KEY and any shop unless told otherwise. */
export function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<SandboxHandle> {
  return startSandbox({ port: 0, apiKey: SANDBOX_API_KEY, quiet: true, delays: FAST_SANDBOX_DELAYS, ...options });
}

export interface CallOptions {
  body?: unknown;
  /** Bearer credential; null sends no Authorization header. Default: the API key. */
  token?: string | null;
  /** null sends no X-Request-ID. */
  requestId?: string | null;
  headers?: Record<string, string>;
}

/** What a request on a fresh connection ended in: an answer, or the connection failing (e.g. ECONNRESET). */
export interface RawOutcome {
  status?: number;
  body?: string;
  error?: string;
}

let requestCounter = 0;

/**
 * The one client of the sandbox in tests: speaks the provider API the way a well-behaved merchant does
 * (`call` and the helpers below), and drives the sandbox through `control`.
 */
export class SandboxClient {
  readonly control: SandboxControl;
  private readonly http: AxiosInstance;

  constructor(
    readonly url: string,
    readonly options: { apiKey?: string; shopId?: string; handle?: SandboxHandle } = {},
  ) {
    this.control = new SandboxControl(url);
    this.http = axios.create({ baseURL: url, validateStatus: () => true, timeout: 30_000 });
  }

  /** Starts a sandbox of its own (see startTestSandbox), closed by close(). */
  static async start(options: Partial<SandboxOptions> = {}): Promise<SandboxClient> {
    const handle = await startTestSandbox(options);
    return new SandboxClient(handle.url, { apiKey: options.apiKey, shopId: options.shopId, handle });
  }

  get apiKey(): string {
    return this.options.apiKey ?? SANDBOX_API_KEY;
  }

  get shopId(): string {
    return this.options.shopId ?? SANDBOX_SHOP_ID;
  }

  /** Closes the sandbox when this client started it. */
  async close(): Promise<void> {
    await this.options.handle?.close();
  }

  call<T = unknown>(method: Method, path: string, options: CallOptions = {}): Promise<AxiosResponse<T>> {
    const headers: Record<string, string> = { 'Cache-Control': 'no-cache', ...options.headers };
    const token = options.token === undefined ? this.apiKey : options.token;
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

  /** One request with the API key on a fresh connection, reporting a reset instead of throwing, so tests can observe it. */
  async rawCall(method: string, path: string, body?: unknown): Promise<RawOutcome> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, 'X-Request-ID': `raw-${++requestCounter}` };
    if (payload !== undefined) Object.assign(headers, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(payload)) });
    try {
      const res = await rawRequest(this.url, { method, path, headers, body: payload });
      return { status: res.status, body: res.text };
    } catch (e) {
      const error = e as NodeJS.ErrnoException;
      return { error: error.code ?? error.message };
    }
  }

  private answered<T>(res: AxiosResponse<T>, what: string, status = 201): T {
    if (res.status !== status) throw new Error(`${what} answered ${res.status}, expected ${status}: ${JSON.stringify(res.data)}`);
    return res.data;
  }

  // ---- recurring charges ----

  async createCustomer(overrides: Record<string, unknown> = {}): Promise<CustomerAndToken> {
    const body = { shopID: this.shopId, contactInfo: { email: 'payer@example.com', phoneNumber: '+79990001122' }, metadata: {}, ...overrides };
    return this.answered(await this.call<CustomerAndToken>('POST', '/v2/processing/customers', { body }), 'creating a customer');
  }

  /** The merchant's own card form: tokenizes a card straight at the provider. */
  async tokenize(cardNumber: string, expDate = CARD_EXP_DATE, token: string | null = this.apiKey): Promise<PaymentResourceResult> {
    const res = await this.call<PaymentResourceResult>('POST', '/v2/processing/payment-resources', {
      token,
      body: { paymentTool: { paymentToolType: 'CardData', cardNumber, expDate, cvv: '123', cardHolder: 'JOHN DOE' }, clientInfo: { fingerprint: 'fp-1' } },
    });
    return this.answered(res, 'tokenizing a card');
  }

  /** A tokenized card as the daemon's binding route takes it. */
  async cardForBinding(cardNumber: string = CARDS.success): Promise<{ paymentToolToken: string; paymentSession: string }> {
    const { paymentToolToken, paymentSession } = await this.tokenize(cardNumber);
    return { paymentToolToken, paymentSession };
  }

  /** Starts a binding of this card; answers the 201 binding (pending). */
  async startBinding(customerID: string, cardNumber: string, extra: Record<string, unknown> = {}): Promise<CustomerBinding> {
    const paymentResource = await this.cardForBinding(cardNumber);
    const res = await this.call<CustomerBinding>('POST', `/v2/processing/customers/${customerID}/bindings`, { body: { paymentResource, ...extra } });
    return this.answered(res, 'starting a binding');
  }

  async finalBinding(customerID: string, bindingID: string): Promise<CustomerBinding> {
    return waitFor(
      async () => (await this.call<CustomerBinding>('GET', `/v2/processing/customers/${customerID}/bindings/${bindingID}`)).data,
      (b) => b.status !== 'pending',
      { everyMs: 5, what: `binding ${bindingID} settled` },
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

  /** Opens the ACS page the way a browser follows the binding's redirect (a form POST, or a GET). */
  async openAcs(customerID: string, bindingID: string): Promise<PayerPage> {
    const change = await this.interactionOf(customerID, bindingID);
    if (!change) throw new Error(`binding ${bindingID} asked for no interaction`);
    return openAcsPage(redirectOf(change.userInteraction));
  }

  /** Does what the payer does on the ACS page: press Confirm; answers the page shown after. Undefined when the binding needs no 3-D Secure. */
  async passThreeDs(customerID: string, bindingID: string): Promise<PayerPage | undefined> {
    const change = await this.interactionOf(customerID, bindingID);
    return change && confirmThreeDs(redirectOf(change.userInteraction));
  }

  async getCustomer(customerID: string): Promise<Customer> {
    return (await this.call<Customer>('GET', `/v2/processing/customers/${encodeURIComponent(customerID)}`)).data;
  }

  /** The bindings the provider holds for a customer. */
  async bindings(customerID: string): Promise<CustomerBinding[]> {
    const res = await this.call<CustomerBinding[]>('GET', `/v2/processing/customers/${encodeURIComponent(customerID)}/bindings`);
    return this.answered(res, 'listing bindings', 200);
  }

  /** A customer with a successfully bound card. */
  async readyCustomer(cardNumber: string = CARDS.success, overrides: Record<string, unknown> = {}): Promise<Customer> {
    const { customer } = await this.createCustomer(overrides);
    const binding = await this.bindCard(customer.id, cardNumber);
    if (binding.status !== 'succeeded') throw new Error(`binding ${cardNumber} ended ${binding.status}, expected succeeded`);
    return this.getCustomer(customer.id);
  }

  async createInvoice(overrides: Record<string, unknown> = {}): Promise<InvoiceAndToken> {
    const res = await this.call<InvoiceAndToken>('POST', '/v2/processing/invoices', { body: invoiceParams(overrides, this.shopId) });
    return this.answered(res, 'creating an invoice');
  }

  pay(invoiceID: string, invoiceToken: string, customerID: string, extra: Record<string, unknown> = {}): Promise<AxiosResponse<Payment>> {
    return this.call<Payment>('POST', `/v1/processing/invoices/${invoiceID}/payments`, {
      token: invoiceToken,
      body: { flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID }, ...extra },
    });
  }

  async finalPayment(invoiceID: string, paymentID: string): Promise<Payment> {
    return waitFor(
      async () => (await this.call<Payment>('GET', `/v2/processing/invoices/${invoiceID}/payments/${paymentID}`)).data,
      (p) => p.status === 'captured' || p.status === 'failed',
      { everyMs: 5, what: `payment ${invoiceID}/${paymentID} settled` },
    );
  }

  // ---- payouts ----

  async createIdentity(body: Record<string, unknown> = {}): Promise<Identity> {
    const res = await this.call<Identity>('POST', '/wallet/v0/identities', { body: { name: 'Acme LLC', provider: 'test', class: 'person', ...body } });
    return this.answered(res, 'creating an identity');
  }

  async createWallet(identityID: string, currency = 'RUB'): Promise<Wallet> {
    const res = await this.call<Wallet>('POST', '/wallet/v0/wallets', { body: { name: 'Corporate', identity: identityID, currency } });
    return this.answered(res, 'creating a wallet');
  }

  async cardToken(cardNumber: string): Promise<string> {
    const res = await this.call<{ token: string }>('POST', '/payres/v0/bank-cards', {
      body: { type: 'BankCard', cardNumber, expDate: CARD_EXP_DATE, cardHolder: 'JANE ROE', cvv: '123' },
    });
    return (await this.answered(res, 'tokenizing a payout card')).token;
  }

  async createDestination(identityID: string, cardNumber: string, currency = 'RUB'): Promise<Destination> {
    const token = await this.cardToken(cardNumber);
    const res = await this.call<Destination>('POST', '/wallet/v0/destinations', {
      body: { name: 'Payee card', identity: identityID, currency, resource: { type: 'BankCardDestinationResource', token } },
    });
    return this.answered(res, 'creating a destination');
  }

  async authorizedDestination(identityID: string, cardNumber: string, currency = 'RUB'): Promise<Destination> {
    const destination = await this.createDestination(identityID, cardNumber, currency);
    return waitFor(
      async () => (await this.call<Destination>('GET', `/wallet/v0/destinations/${destination.id}`)).data,
      (d) => d.status === 'Authorized',
      { everyMs: 5, what: `destination ${destination.id} authorized` },
    );
  }

  async finalWithdrawal(withdrawalID: string): Promise<Withdrawal> {
    return waitFor(
      async () => (await this.call<Withdrawal>('GET', `/wallet/v0/withdrawals/${withdrawalID}`)).data,
      (w) => w.status !== 'Pending',
      { everyMs: 5, what: `withdrawal ${withdrawalID} settled` },
    );
  }
}

/** A valid invoice body: 1500 RUB due tomorrow. */
export function invoiceParams(overrides: Record<string, unknown> = {}, shopID: string = SANDBOX_SHOP_ID): Record<string, unknown> {
  return {
    shopID,
    dueDate: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
    amount: 1500,
    currency: 'RUB',
    product: 'Monthly plan',
    metadata: { subscriptionId: 'sub-1' },
    ...overrides,
  };
}

function parseMaybeJson(data: unknown): unknown {
  if (typeof data !== 'string' || data === '') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
