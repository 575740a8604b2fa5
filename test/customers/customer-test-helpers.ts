import { DataSource } from 'typeorm';
import { CustomerSyncService } from '../../src/customers/customer-sync.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { BrowserRedirect, confirmThreeDs } from '../support/three-ds-payer';
import { waitFor } from '../support/wait';

/** Registers the hooks of a customers suite: one daemon for the file (`onStart` hands it over), an empty database before each test. */
export function useCustomersApp(onStart: (testApp: TestApp) => void, options: Parameters<typeof startTestApp>[0] = {}): void {
  let testApp: TestApp | undefined;
  beforeAll(async () => {
    testApp = await startTestApp(options);
    onStart(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
  });
  beforeEach(async () => {
    await resetDatabase();
  });
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
export async function syncUntil<T>(testApp: TestApp, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<{ value: T; totals: SyncTotals }> {
  const sync = testApp.app.get(CustomerSyncService);
  const totals: SyncTotals = { synced: 0, becameReady: 0, passes: 0 };
  const value = await waitFor(
    async () => {
      const result = await sync.syncDue();
      totals.synced += result.synced;
      totals.becameReady += result.becameReady;
      totals.passes += 1;
      return probe();
    },
    (found) => Boolean(found),
    { timeoutMs, everyMs: 100, what: 'the condition, running the follower between looks' },
  );
  return { value: value as T, totals };
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
  const tool = await testApp.sandboxClient.tokenize(cardNumber);
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
