import type { Server } from 'node:net';
import { CARDS } from '../support/test-cards';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { listenOnLoopback, rawRequest } from '../support/raw-http';
import { BillingStory } from '../webhooks/support/billing-story';
import { MerchantReceiver } from '../webhooks/support/merchant-receiver';
import { allEvents, createEndpoint, EventView, FAST_WEBHOOK_TUNING, until } from '../webhooks/support/webhook-fixtures';

interface AuditEntry {
  type: string;
  actor: { type: string; id?: string; name?: string };
}

describe('The actor of every change: admin token, API key, console, the daemon itself', () => {
  let t: TestApp;
  let base: string;
  let story: BillingStory;
  let receiver: MerchantReceiver;
  let planId: string;

  const json = { 'content-type': 'application/json' };

  async function subscribeAs(headers: Record<string, string>): Promise<string> {
    const customer = await story.createCustomer();
    const res = await rawRequest(base, { method: 'POST', path: '/api/v1/subscriptions', headers: { ...json, ...headers }, body: JSON.stringify({ customerId: customer.id, planId }) });
    expect(res.status).toBe(201);
    return (res.json as { id: string }).id;
  }

  const eventAbout = (type: string, id: string) => until(async () => (await allEvents(t.api, type)).find((e) => e.data.object.id === id), 30_000, `${type} of ${id}`);

  async function trail(subscriptionId: string): Promise<AuditEntry[]> {
    return (await t.api().get(`/api/v1/subscriptions/${subscriptionId}/events`).expect(200)).body.items as AuditEntry[];
  }

  async function consoleSession(token: string): Promise<Record<string, string>> {
    const signIn = await rawRequest(base, { method: 'POST', path: '/console/session', headers: json, body: JSON.stringify({ token }) });
    expect(signIn.status).toBe(201);
    return { cookie: String(signIn.headers['set-cookie']).split(';')[0], 'x-console': '1' };
  }

  beforeAll(async () => {
    await resetDatabase();
    receiver = await MerchantReceiver.start();
    t = await startTestApp({ env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000' }, webhookTuning: FAST_WEBHOOK_TUNING });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    story = new BillingStory(t);
    const endpoint = await createEndpoint(t.api, { url: receiver.url, events: ['subscription.created', 'subscription.updated', 'customer.ready'] });
    receiver.useSecret(endpoint.secret);
    planId = (await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201)).body.id;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('names the admin token, a key, and the console on the events and audit entries of their changes', async () => {
    const key = (await t.api().post('/api/v1/api-keys').send({ name: 'storefront', scopes: ['subscriptions:write', 'customers:write'] }).expect(201)).body as { id: string; key: string };
    const keyActor = { type: 'api_key', id: key.id, name: 'storefront' };

    const byRoot = await subscribeAs({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    const byKey = await subscribeAs({ authorization: `Bearer ${key.key}` });
    const byConsole = await subscribeAs(await consoleSession(TEST_ADMIN_TOKEN));
    const keyConsole = await consoleSession(key.key);
    const cancel = await rawRequest(base, { method: 'POST', path: `/api/v1/subscriptions/${byKey}/cancel`, headers: { ...json, ...keyConsole }, body: '{}' });
    expect(cancel.status).toBe(200);

    expect((await eventAbout('subscription.created', byRoot)).actor).toEqual({ type: 'admin_token' });
    expect((await eventAbout('subscription.created', byKey)).actor).toEqual(keyActor);
    expect((await eventAbout('subscription.created', byConsole)).actor).toEqual({ type: 'console' });
    const canceled = (await allEvents(t.api)).find((e: EventView) => e.data.object.id === byKey && e.type !== 'subscription.created') as EventView;
    expect(canceled.actor).toEqual({ type: 'console', id: key.id, name: 'storefront' });

    expect((await trail(byRoot)).map((e) => e.actor)).toEqual([{ type: 'admin_token' }]);
    expect((await trail(byConsole)).map((e) => e.actor)).toEqual([{ type: 'console' }]);
    const keyTrail = await trail(byKey);
    expect(keyTrail.map((e) => e.actor)).toEqual([{ type: 'console', id: key.id, name: 'storefront' }, keyActor]);

    // The webhook deliveries carry the same actor as the event.
    const delivered = await until(async () => receiver.unique().find((d) => d.event.type === 'subscription.created' && d.event.data.object.id === byKey), 30_000, 'the delivery');
    expect(delivered.event.actor).toEqual(keyActor);
  });

  it("names the daemon itself (system) on the work engine's changes", async () => {
    const customer = await story.createCustomer();
    expect(await story.bindCard(customer.id, CARDS.success)).toBe('succeeded');
    expect((await eventAbout('customer.ready', customer.id)).actor).toEqual({ type: 'system' });
    const delivered = await until(async () => receiver.unique().find((d) => d.event.type === 'customer.ready' && d.event.data.object.id === customer.id), 30_000, 'the delivery');
    expect(delivered.event.actor).toEqual({ type: 'system' });
  });
});
