import { Client } from 'pg';
import { ProviderWebhookRegistrationService } from '../../src/provider-webhooks/provider-webhook-registration.service';
import { WebhookHealthService } from '../../src/provider-webhooks/webhook-health.service';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { createCustomer, getCustomer } from '../customers/customer-test-helpers';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { SandboxControl } from '../support/sandbox-control';
import { CARD_EXP_DATE, CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { waitFor } from '../support/wait';

const PLAN = { name: 'Hooks', product: 'Hooks', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] };
/**
 * A provider that takes its time to settle a payment: polling has to ask again and again (backing off from 5 ms to
 * 1 s between reads, so four reads take under 8 s even when each takes nearly 2 s on a busy machine; at 3 s, reads
 * of a second at load 18 made only three).
 */
const SLOW_PAYMENT_MS = 8_000;

/**
 * With the provider's webhooks, the daemon hears outcomes instead of asking for them: a bound card makes its customer
 * ready at once, even while the follower's polls are spaced out, and a slow payment is read about once, not a dozen
 * times. Polling stays as the safety net.
 */
describe('the provider webhooks drive the state machines', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  let db: Client;
  let t: TestApp | undefined;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ delays: { bindingMs: 20, paymentMs: 5, authorizeDestinationMs: 20, withdrawalMs: 10 } });
    control = new SandboxControl(sandbox.url);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  afterAll(async () => {
    await db?.end();
    await sandbox?.close();
  });

  /** An app polling only, or also hearing the provider's webhooks: then it answers once they are registered at its address. */
  async function start(webhooks: boolean): Promise<TestApp> {
    const app = await startTestApp({ sandbox, env: { SCHEDULER_ENABLED: 'true' }, ...(webhooks ? { providerWebhooksAt: true as const } : {}) });
    t = app;
    if (webhooks) {
      // Registration runs in the background: events of what happens before it ends would never come.
      // (Rows of the apps before this one, at their own addresses, stay in the table.)
      const registration = app.app.get(ProviderWebhookRegistrationService);
      const ours = async () => (await registration.list()).filter((r) => r.url === `${app.url}/webhooks/provider`);
      await until(ours, (rows) => rows.length === 2 && rows.every((r) => r.status === 'active'));
    }
    return app;
  }

  /** Events of `kind` have reached the app: its pollers now only keep a safety net. */
  const flowing = (app: TestApp, kind: 'invoice' | 'customer') => until(async () => app.app.get(WebhookHealthService).isFlowing(kind), (yes) => yes);

  async function bindOnHostedForm(app: TestApp, customer: { providerCustomerId: string; customerAccessToken: string | null }): Promise<void> {
    const page = await control.submitHostedForm({
      customerID: customer.providerCustomerId,
      customerAccessToken: customer.customerAccessToken as string,
      cardNumber: CARDS.success,
      expDate: CARD_EXP_DATE,
      cvv: '123',
      cardHolder: 'IVAN PETROV',
      consent: 'yes',
    });
    expect(page.status).toBe(200);
  }

  const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitFor(read, done, { timeoutMs: 60_000, everyMs: 20 });

  /** Runs billing for `count` new subscriptions of a ready customer; answers the provider's payment reads per charge. */
  async function chargeAndCountReads(app: TestApp, customerId: string, planId: string, count: number): Promise<number> {
    const readsBefore = (await control.requests('getPayment')).length;
    const succeededBefore = await succeededCharges(app);
    for (let i = 0; i < count; i++) await app.api().post('/api/v1/subscriptions').send({ customerId, planId }).expect(201);
    await app.api().post('/api/v1/billing/run').send({}).expect(200);
    await until(() => succeededCharges(app), (n) => n === succeededBefore + count);
    return ((await control.requests('getPayment')).length - readsBefore) / count;
  }

  const succeededCharges = async (app: TestApp) => ((await app.api().get('/api/v1/charges?status=succeeded&limit=200').expect(200)).body as { items: unknown[] }).items.length;

  it('reads a slow payment about once per charge with webhooks, where polling alone reads it many times', async () => {
    // Polling only (no PUBLIC_URL with a real provider): the worker polls the payment until it settles.
    let app = await start(false);
    const customer = await createCustomer(app, { email: 'hooks@example.com' });
    await bindOnHostedForm(app, customer as never);
    await until(() => getCustomer(app, customer.id), (c) => c.status === 'ready');
    const plan = (await app.api().post('/api/v1/plans').send(PLAN).expect(201)).body as { id: string };
    await control.setDelays({ paymentMs: SLOW_PAYMENT_MS });
    const polled = await chargeAndCountReads(app, customer.id, plan.id, 3);
    await app.close();
    t = undefined;

    // With webhooks registered: from the very first payment on, an open payment waits for its event (polling is the
    // safety net), before any event has arrived.
    // (A payment settled in about two seconds, as the provider's do: the safety net's first read comes later.)
    app = await start(true);
    await control.setDelays({ paymentMs: 2_000 });
    const withWebhooks = await chargeAndCountReads(app, customer.id, plan.id, 4);

    console.log(`payment reads per charge: ${polled.toFixed(2)} polling only, ${withWebhooks.toFixed(2)} with webhooks from the first payment on`);
    expect(withWebhooks).toBeLessThanOrEqual(1.5);
    expect(polled).toBeGreaterThanOrEqual(4);
    const ledger = await control.ledger();
    expect(ledger.payments.filter((p) => p.status === 'captured')).toHaveLength(7);
  });

  it('settles a charge whose payment event never comes (the topic silently stopped) by the safety net, within 10 s', async () => {
    await control.setDelays({ paymentMs: 1_000 });
    const app = await start(true);
    const customer = await createCustomer(app, { email: 'silent@example.com' });
    await bindOnHostedForm(app, customer as never);
    await until(() => getCustomer(app, customer.id), (c) => c.status === 'ready');
    const plan = (await app.api().post('/api/v1/plans').send(PLAN).expect(201)).body as { id: string };
    // The provider forgets the invoices webhook; the daemon still counts it registered (it looks again hourly).
    const registration = app.app.get(ProviderWebhookRegistrationService);
    const [invoices] = (await registration.list()).filter((r) => r.url === `${app.url}/webhooks/provider` && r.topic === 'InvoicesTopic');
    expect((await new SandboxClient(sandbox.url).call('DELETE', `/v2/processing/webhooks/${invoices.providerWebhookId}`)).status).toBe(204);

    const ours = async () => (await control.webhookDeliveries()).filter((d) => d.topic === 'InvoicesTopic' && d.url === `${app.url}/webhooks/provider`);
    const deliveriesBefore = (await ours()).length;
    const subscription = (await app.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id }).expect(201)).body as { id: string };
    // The admin run answers once its charges settled: what the charge waits for shows meanwhile.
    const running = app.api().post('/api/v1/billing/run').send({}).then((res) => res.status);
    // Left to its event, the charge is due again at most 10 s later: the safety net, not the minute of before.
    const waiting = await until(
      async () =>
        (
          await db.query<{ in_s: number | null }>(
            `SELECT extract(epoch FROM not_before - now())::float8 AS in_s FROM charges WHERE subscription_id = $1 AND step = 'await_payment' AND lease_owner IS NULL`,
            [subscription.id],
          )
        ).rows[0],
      (row) => row !== undefined && row.in_s !== null,
    );
    expect(waiting.in_s).toBeLessThanOrEqual(10);
    expect(await running).toBe(200);
    const charges = async () => ((await app.api().get(`/api/v1/charges?subscriptionId=${subscription.id}`).expect(200)).body as { items: { status: string }[] }).items;
    await until(charges, (items) => items[0]?.status === 'succeeded');
    expect(await ours()).toHaveLength(deliveriesBefore);
  });

  it('makes a customer ready on the event of its binding, before the follower would read it again', async () => {
    await control.setDelays({ paymentMs: 5 });
    const app = await start(true);
    // A first binding: customer events now arrive, so the follower spaces its polls out (the safety net).
    const first = await createCustomer(app, { email: 'first@example.com' });
    await bindOnHostedForm(app, first as never);
    await until(() => getCustomer(app, first.id), (c) => c.status === 'ready');
    await flowing(app, 'customer');

    const customer = await createCustomer(app, { email: 'second@example.com' });
    // The follower has read the new customer and will not read it again for a while (seconds, with events flowing).
    const nextRead = async () =>
      (await db.query<{ next_sync_at: Date; in_ms: number }>(`SELECT next_sync_at, extract(epoch FROM next_sync_at - now()) * 1000 AS in_ms FROM customers WHERE id = $1`, [customer.id])).rows[0];
    await until(nextRead, (row) => row.in_ms > 5_000);
    // Seconds are no margin on a busy machine: the next read is moved an hour away (while no read is in progress, so
    // none writes its own schedule over it). Only the binding's event can make the customer ready before then.
    const followerReadsAt = (
      await until(
        async () => {
          await db.query(`UPDATE customers SET next_sync_at = now() + interval '1 hour' WHERE id = $1 AND lease_owner IS NULL`, [customer.id]);
          return nextRead();
        },
        (row) => row.in_ms > 50 * 60_000,
      )
    ).next_sync_at;

    await bindOnHostedForm(app, customer as never);
    const ready = await until(() => getCustomer(app, customer.id), (c) => c.status === 'ready');
    // Ready before the follower's next read was due: the event did it, however long the machine took.
    expect(new Date(ready.readyAt as string).getTime()).toBeLessThan(followerReadsAt.getTime());
  });
});
