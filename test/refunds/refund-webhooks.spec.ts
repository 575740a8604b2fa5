import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { ProviderWebhookRegistrationService } from '../../src/provider-webhooks/provider-webhook-registration.service';
import type { RefundResponse } from '../../src/refunds/refund-response';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { bindCard, createCustomer, getCustomer } from '../customers/customer-test-helpers';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { SandboxControl } from '../support/sandbox-control';
import { CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

const PLAN = { name: 'Refunded', product: 'Refunded plan', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 2000, taxRate: '22%' }] };
/** A pending refund left to its event is read again only after this: an hour, so in the test only the event can settle it. */
const SAFETY_NET_MS = 3_600_000;

/**
 * The provider's refund webhooks settle refunds: a refund the provider holds as pending is left to its event, which
 * makes the daemon read it at once, and an older invoices webhook registered without the refund events is replaced.
 */
describe('refunds settled by the provider’s webhooks', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ delays: { bindingMs: 20, paymentMs: 5, refundMs: 300 } });
    control = new SandboxControl(sandbox.url);
  });

  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
    await sandbox?.close();
  });

  const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => waitFor(read, done, { timeoutMs: 60_000, everyMs: 20, what });

  async function start(publicUrl: string | true): Promise<TestApp> {
    const t = await startTestApp({ sandbox, env: { SCHEDULER_ENABLED: 'true' }, providerWebhooksAt: publicUrl, refundTuning: { eventSafetyNetMs: SAFETY_NET_MS } });
    apps.push(t);
    const registration = t.app.get(ProviderWebhookRegistrationService);
    const url = `${publicUrl === true ? t.url : publicUrl}/webhooks/provider`;
    await until(async () => (await registration.list()).filter((r) => r.url === url), (rows) => rows.length === 2 && rows.every((r) => r.status === 'active'), 'webhooks registered');
    return t;
  }

  /** A succeeded charge of a customer bound with `card`. */
  async function paidCharge(t: TestApp, card: string): Promise<string> {
    const customer = await createCustomer(t, { email: `refund-${card.slice(-4)}@example.com` });
    await bindCard(t, customer.id, card);
    await until(() => getCustomer(t, customer.id), (c) => c.status === 'ready', 'the customer ready');
    const plan = (await t.api().post('/api/v1/plans').send(PLAN).expect(201)).body as { id: string };
    const subscription = (await t.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id }).expect(201)).body as { id: string };
    await t.api().post('/api/v1/billing/run').send({}).expect(200);
    const charges = async () => ((await t.api().get(`/api/v1/charges?subscriptionId=${subscription.id}`).expect(200)).body as { items: { id: string; status: string }[] }).items;
    return (await until(charges, (items) => items[0]?.status === 'succeeded', 'the charge paid'))[0].id;
  }

  it('settles a succeeded and a failed refund on their events, where the next read would be an hour away', async () => {
    const t = await start(true);
    const [invoices] = (await t.app.get(ProcessingGateway).listWebhooks()).filter((w) => w.scope.topic === 'InvoicesTopic' && w.url === `${t.url}/webhooks/provider`);
    expect(invoices.scope.eventTypes).toEqual(expect.arrayContaining(['PaymentRefundSucceeded', 'PaymentRefundFailed']));

    for (const [card, outcome] of [
      [CARDS.success, 'succeeded'],
      [CARDS.refundsFail, 'failed'],
    ] as const) {
      const chargeId = await paidCharge(t, card);
      const readsBefore = (await control.requests('getRefund')).length;
      const asked = (await t.api().post(`/api/v1/charges/${chargeId}/refunds`).send({ amount: 500 }).expect(202)).body as RefundResponse;
      const final = await until(async () => (await t.api().get(`/api/v1/refunds/${asked.id}`)).body as RefundResponse, (r) => r.status !== 'pending', `the refund ${outcome}`);
      expect(final.status).toBe(outcome);
      // Left to its event after the create, the refund was read once: when its event came.
      expect((await control.requests('getRefund')).length - readsBefore).toBe(1);
      const delivered = (await control.webhookDeliveries()).filter((d) => d.url === `${t.url}/webhooks/provider` && d.eventType === (outcome === 'succeeded' ? 'RefundSucceeded' : 'RefundFailed'));
      expect(delivered.length).toBeGreaterThan(0);
    }
  });

  it('replaces an invoices webhook registered before refunds with one that carries their events, and deletes the old one', async () => {
    const publicUrl = 'https://billing.example.com';
    const client = new SandboxClient(sandbox.url);
    const old = await client.call<{ id: string }>('POST', '/v2/processing/webhooks', {
      body: { scope: { topic: 'InvoicesTopic', shopID: SANDBOX_SHOP_ID, eventTypes: ['PaymentCaptured', 'PaymentFailed', 'PaymentCancelled', 'InvoicePaid', 'InvoiceCancelled'] }, url: `${publicUrl}/webhooks/provider` },
    });
    expect(old.status).toBe(201);
    const t = await start(publicUrl);
    const ours = (await t.app.get(ProcessingGateway).listWebhooks()).filter((w) => w.url === `${publicUrl}/webhooks/provider` && w.scope.topic === 'InvoicesTopic');
    expect(ours).toHaveLength(1);
    expect(ours[0].id).not.toBe(old.data.id);
    expect(ours[0].scope.eventTypes).toEqual(expect.arrayContaining(['PaymentCaptured', 'PaymentRefundSucceeded', 'PaymentRefundFailed']));
  });
});
