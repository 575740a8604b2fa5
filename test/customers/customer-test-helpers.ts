import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SANDBOX_API_KEY } from '../../src/config/load-config';
import { CustomerSyncService } from '../../src/customers/customer-sync.service';
import type { CustomerBinding as ProviderBinding, PaymentResourceResult } from '../../src/gateway/provider-api.types';
import type { TestApp } from '../support/test-app';
import { BrowserRedirect, confirmThreeDs } from '../support/three-ds-payer';

export const SUCCESS_CARD = '4242424242424242';
export const SECOND_SUCCESS_CARD = '5555555555554444';
export const INSUFFICIENT_FUNDS_CARD = '4000000000000002';
export const THREE_DS_FAILURE_CARD = '4987654321098769';
export const EXP_DATE = '12/30';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function providerHeaders(): Record<string, string> {
  return {
    Authorization: `Bearer ${SANDBOX_API_KEY}`,
    'X-Request-ID': randomBytes(8).toString('hex'),
    'Content-Type': 'application/json; charset=utf-8',
  };
}

async function sandboxCall<T>(url: string, init: { method: string; body?: unknown }): Promise<T> {
  const response = await fetch(url, {
    method: init.method,
    headers: providerHeaders(),
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method} ${url} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The merchant's own card form: tokenizes a card directly at the provider (operation 7). */
export function tokenizeCard(testApp: TestApp, cardNumber: string): Promise<PaymentResourceResult> {
  return sandboxCall(`${testApp.sandbox.url}/v2/processing/payment-resources`, {
    method: 'POST',
    body: {
      paymentTool: { paymentToolType: 'CardData', cardNumber, expDate: EXP_DATE, cvv: '123', cardHolder: 'TEST' },
      clientInfo: { fingerprint: 'f' },
    },
  });
}

/** The bindings the provider holds for a customer (its own view, to count them). */
export function providerBindings(testApp: TestApp, providerCustomerId: string): Promise<ProviderBinding[]> {
  return sandboxCall(`${testApp.sandbox.url}/v2/processing/customers/${encodeURIComponent(providerCustomerId)}/bindings`, { method: 'GET' });
}

export interface LoggedProviderRequest {
  operation: string;
  method: string;
  path: string;
}

/** The sandbox's log of provider requests, optionally of one operation. */
export async function sandboxRequests(testApp: TestApp, operation?: string): Promise<LoggedProviderRequest[]> {
  const query = operation ? `?operation=${encodeURIComponent(operation)}` : '';
  const body = await sandboxCall<LoggedProviderRequest[] | { items: LoggedProviderRequest[] }>(`${testApp.sandbox.url}/sandbox/requests${query}`, {
    method: 'GET',
  });
  const entries = Array.isArray(body) ? body : body.items;
  return operation ? entries.filter((entry) => entry.operation === operation) : entries;
}

export function addFault(testApp: TestApp, rule: { operation: string; kind: string; count?: number; latencyMs?: number }): Promise<unknown> {
  return sandboxCall(`${testApp.sandbox.url}/sandbox/faults`, { method: 'POST', body: rule });
}

export function resetSandbox(testApp: TestApp): Promise<unknown> {
  return sandboxCall(`${testApp.sandbox.url}/sandbox/reset`, { method: 'POST' });
}

export interface SyncTotals {
  synced: number;
  becameReady: number;
  passes: number;
}

/**
 * Runs the follower the way the scheduler would, pass after pass, until `probe` returns something truthy.
 * Due times are honoured (nothing is forced), so this also checks that the follower schedules its next look.
 */
export async function syncUntil<T>(testApp: TestApp, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<{ value: T; totals: SyncTotals }> {
  const sync = testApp.app.get(CustomerSyncService);
  const totals: SyncTotals = { synced: 0, becameReady: 0, passes: 0 };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await sync.syncDue();
    totals.synced += result.synced;
    totals.becameReady += result.becameReady;
    totals.passes += 1;
    const value = await probe();
    if (value) return { value, totals };
    if (Date.now() > deadline) throw new Error(`condition not met after ${totals.passes} follower passes (${timeoutMs} ms)`);
    await sleep(100);
  }
}

export function dataSource(testApp: TestApp): DataSource {
  return testApp.app.get(DataSource);
}

/** Every column of every row of a table, as JSON text: to look for a secret anywhere in it. */
export async function tableText(testApp: TestApp, table: 'customers' | 'customer_bindings' | 'idempotency_records'): Promise<string> {
  const rows = await dataSource(testApp).query<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM ${table} t`);
  return rows.map((r) => r.row).join('\n');
}

export interface InteractionBody extends BrowserRedirect {
  type: 'redirect';
}

export interface CustomerBody {
  id: string;
  providerCustomerId: string;
  status: 'unready' | 'ready';
  pendingBinding: { id: string; status: 'pending'; interaction: InteractionBody | null } | null;
  customerAccessToken?: string | null;
  customerAccessTokenRenewal?: string;
  hostedFormUrl?: string;
  card: { bin: string | null; lastDigits: string | null; paymentSystem: string | null } | null;
  readyAt: string | null;
  email: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  shopId: string;
  createdAt: string;
  updatedAt: string;
}

export interface BindingBody {
  id: string;
  customerId: string;
  providerBindingId: string | null;
  source: 'api' | 'hosted_form';
  status: 'pending' | 'succeeded' | 'failed';
  errorCode: string | null;
  card: { bin: string | null; lastDigits: string | null; paymentSystem: string | null } | null;
  interaction: InteractionBody | null;
}

export async function createCustomer(testApp: TestApp, body: Record<string, unknown> = {}): Promise<CustomerBody> {
  const response = await testApp.api().post('/api/v1/customers').send(body).expect(201);
  return response.body as CustomerBody;
}

export async function getCustomer(testApp: TestApp, id: string): Promise<CustomerBody> {
  const response = await testApp.api().get(`/api/v1/customers/${id}`).expect(200);
  return response.body as CustomerBody;
}

export async function listBindings(testApp: TestApp, id: string): Promise<BindingBody[]> {
  const response = await testApp.api().get(`/api/v1/customers/${id}/bindings`).expect(200);
  return (response.body as { items: BindingBody[] }).items;
}

export async function getBinding(testApp: TestApp, customerId: string, bindingId: string): Promise<BindingBody> {
  const response = await testApp.api().get(`/api/v1/customers/${customerId}/bindings/${bindingId}`).expect(200);
  return response.body as BindingBody;
}

/**
 * Waits (running the follower) until the admin API shows that the binding asks the payer for 3-D Secure, then does
 * what the payer does at the sandbox's ACS page: confirm. Answers the binding as it showed the interaction.
 */
export async function passThreeDs(testApp: TestApp, customerId: string, bindingId: string): Promise<BindingBody> {
  const { value } = await syncUntil(testApp, async () => {
    const binding = await getBinding(testApp, customerId, bindingId);
    return binding.interaction ? binding : undefined;
  });
  const page = await confirmThreeDs(value.interaction as InteractionBody);
  if (page.status !== 200) throw new Error(`confirming 3-D Secure answered ${page.status}`);
  return value;
}

/** Tokenizes a card and starts a binding through the admin API; answers the 202 body. */
export async function bindCard(testApp: TestApp, customerId: string, cardNumber: string): Promise<{ id: string; status: string }> {
  const tool = await tokenizeCard(testApp, cardNumber);
  const response = await testApp
    .api()
    .post(`/api/v1/customers/${customerId}/bindings`)
    .send({ paymentToolToken: tool.paymentToolToken, paymentSession: tool.paymentSession })
    .expect(202);
  return response.body as { id: string; status: string };
}

/** Waits (running the follower) until every binding of the customer has an outcome. */
export async function syncUntilBindingsSettled(testApp: TestApp, customerId: string, expected: number): Promise<BindingBody[]> {
  const { value } = await syncUntil(testApp, async () => {
    const bindings = await listBindings(testApp, customerId);
    return bindings.length === expected && bindings.every((b) => b.status !== 'pending') ? bindings : undefined;
  });
  return value;
}
