import { ShutdownSignal } from '../../src/common/shutdown-signal';
import { CustomerSyncService } from '../../src/customers/customer-sync.service';
import { startTestApp, TestApp } from '../support/test-app';
import type { FaultKind } from '../support/sandbox-control';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { bindCard, createCustomer, dataSource, getCustomer, listBindings, syncUntil, syncUntilBindingsSettled, useCustomersApp } from './customer-test-helpers';

interface SyncRow {
  next_sync_at: Date | null;
  last_event_id: number | null;
  status: string;
  seconds_ahead: number | null;
}

describe('The customer follower under faults and concurrency', () => {
  let testApp: TestApp;

  useCustomersApp((started) => (testApp = started));

  const sync = () => testApp.app.get(CustomerSyncService);
  const syncRow = async (customerId: string): Promise<SyncRow> =>
    (
      await dataSource(testApp).query<SyncRow[]>(
        `SELECT next_sync_at, last_event_id, status, EXTRACT(EPOCH FROM next_sync_at - now())::float8 AS seconds_ahead FROM customers WHERE id = $1`,
        [customerId],
      )
    )[0];

  describe.each<FaultKind>(['timeout_after_effect', 'reset_after_effect'])('create-binding answered by %s', (kind) => {
    it('once: the gateway repeats it with the same externalID; one binding at the provider, the row resolved', async () => {
      const customer = await createCustomer(testApp);
      await testApp.sandboxClient.control.addFault({ operation: 'createBinding', kind, count: 1 });
      const accepted = await bindCard(testApp, customer.id, CARDS.success);
      expect(accepted.status).toBe('pending');

      const [binding] = await syncUntilBindingsSettled(testApp, customer.id, 1);
      expect(binding).toMatchObject({ id: accepted.id, status: 'succeeded', providerBindingId: expect.any(String) });
      const atProvider = await testApp.sandboxClient.bindings(customer.providerCustomerId);
      expect(atProvider).toHaveLength(1);
      expect(atProvider[0].id).toBe(binding.providerBindingId);
      expect((await getCustomer(testApp, customer.id)).status).toBe('ready');
    });

    it('every time: the row stays unknown (shown as pending) and the follower resolves it from the events', async () => {
      const customer = await createCustomer(testApp);
      await testApp.sandboxClient.control.addFault({ operation: 'createBinding', kind, count: 10 });
      const accepted = await bindCard(testApp, customer.id, CARDS.success);
      expect(accepted).toEqual({ id: expect.any(String), status: 'pending' });
      const [row] = await dataSource(testApp).query<{ status: string; provider_binding_id: string | null }[]>(
        'SELECT status, provider_binding_id FROM customer_bindings WHERE id = $1',
        [accepted.id],
      );
      expect(row).toEqual({ status: 'unknown', provider_binding_id: null });
      expect((await listBindings(testApp, customer.id))[0].status).toBe('pending');

      const [binding] = await syncUntilBindingsSettled(testApp, customer.id, 1);
      const atProvider = await testApp.sandboxClient.bindings(customer.providerCustomerId);
      expect(atProvider).toHaveLength(1);
      expect(binding).toMatchObject({ id: accepted.id, status: 'succeeded', providerBindingId: atProvider[0].id, source: 'api' });
      expect(await getCustomer(testApp, customer.id)).toMatchObject({ status: 'ready', card: { lastDigits: '4242' } });
    });
  });

  it('never lets two concurrent passes read the same customer', async () => {
    const customers = await Promise.all(Array.from({ length: 6 }, () => createCustomer(testApp)));
    const paths = new Set(customers.map((c) => `/v2/processing/customers/${c.providerCustomerId}/events`));
    const before = (await testApp.sandboxClient.control.requests('getCustomerEvents')).length;

    const results = await Promise.all([sync().syncDue(), sync().syncDue(), sync().syncDue()]);
    expect(results.reduce((sum, r) => sum + r.synced, 0)).toBe(6);

    const reads = (await testApp.sandboxClient.control.requests('getCustomerEvents')).slice(before).map((r) => r.path.split('?')[0]);
    const perCustomer = new Map<string, number>();
    for (const path of reads.filter((p) => paths.has(p))) perCustomer.set(path, (perCustomer.get(path) ?? 0) + 1);
    expect(perCustomer.size).toBe(6);
    expect([...perCustomer.values()]).toEqual([1, 1, 1, 1, 1, 1]);

    // Each one is now scheduled ahead (unready: polled again in a few seconds), so an immediate pass finds nothing.
    expect(await sync().syncDue()).toEqual({ claimed: 0, synced: 0, becameReady: 0 });
  });

  it('serves refreshes of one customer asked at once with two reads at the provider, not one per request', async () => {
    const customer = await createCustomer(testApp);
    await bindCard(testApp, customer.id, CARDS.success);
    await waitFor(
      () => testApp.sandboxClient.bindings(customer.providerCustomerId),
      (bindings) => bindings.some((b) => b.status === 'succeeded'),
      { what: 'the card bound at the provider' },
    );
    const eventsPath = `/v2/processing/customers/${customer.providerCustomerId}/events`;
    const readsOfCustomer = async () =>
      (await testApp.sandboxClient.control.requests('getCustomerEvents')).filter((r) => r.path.split('?')[0] === eventsPath).length;
    const before = await readsOfCustomer();

    // Asked in one tick (as the refresh route does for requests arriving together): one read in flight, the other
    // four share the one after it, which starts after every request, so every answer is current.
    const results = await Promise.all(Array.from({ length: 5 }, () => sync().syncNow(customer.id)));
    expect(results.map((r) => r?.outcome)).toEqual(['became_ready', 'synced', 'synced', 'synced', 'synced']);
    expect((await readsOfCustomer()) - before).toBe(2);
    expect(await getCustomer(testApp, customer.id)).toMatchObject({ status: 'ready', card: { lastDigits: '4242' } });
  });

  it('keeps a customer and retries later when the provider is unavailable', async () => {
    const customer = await createCustomer(testApp);
    // More 503s than the gateway's retries: the pass fails as a whole.
    await testApp.sandboxClient.control.addFault({ operation: 'getCustomerEvents', kind: 'unavailable', count: 4 });
    expect(await sync().syncDue()).toEqual({ claimed: 1, synced: 0, becameReady: 0 });

    const row = await syncRow(customer.id);
    expect(row.status).toBe('unready');
    expect(row.last_event_id).toBeNull();
    expect(row.seconds_ahead).toBeGreaterThan(20);
    expect(row.seconds_ahead).toBeLessThan(40);
    const metrics = await testApp.api().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/billing_customers_synced_total\{result="provider_retry"\} [1-9]/);
  });

  it('answers refresh with 503 when the provider is unavailable, changing nothing', async () => {
    const customer = await createCustomer(testApp);
    await testApp.sandboxClient.control.addFault({ operation: 'getCustomerEvents', kind: 'unavailable', count: 4 });
    const response = await testApp.api().post(`/api/v1/customers/${customer.id}/refresh`).expect(503);
    expect(response.body.message).toEqual(expect.any(String));
    expect((await getCustomer(testApp, customer.id)).status).toBe('unready');
  });

  it('stops following a customer the provider does not know', async () => {
    await dataSource(testApp).query(
      `INSERT INTO customers (provider_customer_id, shop_id, status, next_sync_at) VALUES ('no-such-customer', 'sandbox-shop', 'unready', now())`,
    );
    expect(await sync().syncDue()).toEqual({ claimed: 1, synced: 0, becameReady: 0 });
    const rows = await dataSource(testApp).query<{ next_sync_at: Date | null; status: string }[]>(
      `SELECT next_sync_at, status FROM customers WHERE provider_customer_id = 'no-such-customer'`,
    );
    expect(rows).toEqual([{ next_sync_at: null, status: 'unready' }]);
  });

  it('gives up on a binding the provider never started once its token must have expired', async () => {
    const customer = await createCustomer(testApp);
    const [{ id }] = await dataSource(testApp).query<{ id: string }[]>(
      `INSERT INTO customer_bindings (customer_id, external_id, status, created_at, updated_at, real_created_at)
       VALUES ($1, 'b00000000000000000000000000000001', 'unknown', now() - interval '3 hours', now() - interval '3 hours', now() - interval '3 hours')
       RETURNING id`,
      [customer.id],
    );
    await sync().syncDue();
    const [binding] = await listBindings(testApp, customer.id);
    expect(binding).toMatchObject({ id, status: 'failed', errorCode: 'binding_not_started', providerBindingId: null });
  });

  it('follows a new binding even when the customer was already ready and no longer followed', async () => {
    const customer = await createCustomer(testApp);
    await bindCard(testApp, customer.id, CARDS.success);
    await syncUntil(testApp, async () => (await getCustomer(testApp, customer.id)).status === 'ready');
    expect((await syncRow(customer.id)).next_sync_at).toBeNull();

    const second = await bindCard(testApp, customer.id, CARDS.secondSuccess);
    expect((await syncRow(customer.id)).next_sync_at).not.toBeNull();
    const bindings = await syncUntilBindingsSettled(testApp, customer.id, 2);
    expect(bindings.find((b) => b.id === second.id)?.status).toBe('succeeded');
    expect((await getCustomer(testApp, customer.id)).card?.lastDigits).toBe('4444');
  });
  it('does not lose a binding started while the follower is reading that customer', async () => {
    const customer = await createCustomer(testApp);
    await bindCard(testApp, customer.id, CARDS.success);
    await syncUntil(testApp, async () => (await getCustomer(testApp, customer.id)).status === 'ready');
    expect((await syncRow(customer.id)).next_sync_at).toBeNull();

    // Make the customer due and slow the follower's read down, then start a binding in the middle of it.
    await dataSource(testApp).query('UPDATE customers SET next_sync_at = now() WHERE id = $1', [customer.id]);
    await testApp.sandboxClient.control.addFault({ operation: 'getCustomer', kind: 'latency', latencyMs: 3_000, count: 1 });
    const pass = sync().syncDue();
    // The follower's read has reached the provider and is held there: the binding starts in the middle of it.
    await waitFor(async () => (await testApp.sandboxClient.control.faults())[0]?.hits, (hits) => hits === 1, { what: "the follower's read under way" });
    const second = await bindCard(testApp, customer.id, CARDS.secondSuccess);
    await pass;

    expect((await syncRow(customer.id)).next_sync_at).not.toBeNull();
    const bindings = await syncUntilBindingsSettled(testApp, customer.id, 2);
    expect(bindings.find((b) => b.id === second.id)?.status).toBe('succeeded');
    expect((await getCustomer(testApp, customer.id)).card?.lastDigits).toBe('4444');
  });
});

describe('The customer follower at shutdown', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('takes no new work once shutdown has begun', async () => {
    const customer = await createCustomer(testApp);
    const before = (await testApp.sandboxClient.control.requests('getCustomerEvents')).length;
    testApp.app.get(ShutdownSignal).beforeApplicationShutdown();

    expect(await testApp.app.get(CustomerSyncService).syncDue()).toEqual({ claimed: 0, synced: 0, becameReady: 0 });
    expect((await testApp.sandboxClient.control.requests('getCustomerEvents')).length).toBe(before);
    const [row] = await dataSource(testApp).query<{ due: boolean }[]>('SELECT next_sync_at <= now() AS due FROM customers WHERE id = $1', [customer.id]);
    expect(row.due).toBe(true);
  });
});
