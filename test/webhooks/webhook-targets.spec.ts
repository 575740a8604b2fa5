import type { LookupAddress } from 'node:dns';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { MerchantReceiver } from './support/merchant-receiver';
import { allAttempts, allEvents, AttemptView, createEndpoint, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

/**
 * Webhook endpoints cannot reach inside the merchant's network: internal targets are refused when an endpoint is
 * created or changed, and again on every delivery against the address actually connected to, so a name that
 * resolves elsewhere later (DNS rebinding) is refused too. Names resolve through a stand-in resolver the test
 * controls; addresses are never connected to unless the rules allow them.
 */
const dns = new Map<string, string[]>();
const lookupHost = async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  const addresses = dns.get(hostname);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const PUBLIC_ADDRESS = '93.184.215.14';

async function subscriptionCreated(t: TestApp): Promise<string> {
  const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
  const customer = await t.api().post('/api/v1/customers').send({}).expect(201);
  const sub = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
  return (await until(async () => (await allEvents(t.api, 'subscription.created')).find((e) => e.data.object.id === sub.body.id), 5_000, 'the event')).id;
}

const attemptOf = (t: TestApp, endpointId: string, eventId: string): Promise<AttemptView> =>
  until(async () => (await allAttempts(t.api, endpointId)).find((a) => a.eventId === eventId), 15_000, `an attempt to send ${eventId}`);

describe('Webhook targets in production', () => {
  let sandbox: SandboxHandle;
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ shopId: SANDBOX_SHOP_ID });
    t = await startTestApp({
      sandbox,
      env: {
        NODE_ENV: 'production',
        PROVIDER_URL: sandbox.url,
        PROVIDER_API_KEY: SANDBOX_API_KEY,
        PROVIDER_SHOP_ID: SANDBOX_SHOP_ID,
        SCHEDULER_ENABLED: 'true',
        BILLING_INTERVAL_MS: '86400000',
        WEBHOOK_ALLOWED_HOSTS: 'hooks.corp.example, 10.9.0.0/16',
      },
      webhookTuning: { ...FAST_WEBHOOK_TUNING, lookupHost, maxEndpoints: 6 },
    });
  });

  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  afterEach(async () => {
    for (const endpoint of (await t.api().get('/api/v1/webhook-endpoints?limit=200')).body.items) await t.api().delete(`/api/v1/webhook-endpoints/${endpoint.id}`).expect(200);
    dns.clear();
  });

  it.each([
    ['plain http', 'http://merchant.example/hooks', 'only https'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', 'link-local address'],
    ['a private 10/8 address', 'https://10.0.0.1/', 'private address'],
    ['a private 192.168/16 address', 'https://192.168.1.1/', 'private address'],
    ['a private 172.16/12 address', 'https://172.16.0.1/', 'private address'],
    ['a unique-local IPv6 address', 'https://[fd00::1]/', 'unique-local address'],
    ['an IPv4-mapped private address', 'https://[::ffff:a00:1]/', 'private address'],
    ['an IPv4-compatible address', 'https://[::a00:1]/', 'IPv4-compatible address'],
    ['a hexadecimal spelling of the metadata address', 'https://0xA9FEA9FE/', 'link-local address'],
    // Spellings the URL rules refuse before the address rules look (the address rules would: WHATWG URL reads them as 169.254.169.254).
    ['a decimal spelling of it', 'https://2852039166/', 'url must be'],
    ['an octal spelling of it', 'https://0251.0376.0251.0376/', 'url must be'],
    ['the unspecified address', 'https://0.0.0.0/', 'unspecified address'],
    ['a short spelling of loopback', 'https://127.1:5432/', 'url must be'],
    ['loopback on the database port', 'https://127.0.0.1:5432/', 'loopback address'],
    ['IPv6 loopback', 'https://[::1]/', 'loopback address'],
    ['an IPv6 link-local address', 'https://[fe80::1]/', 'link-local address'],
    ['a multicast address', 'https://224.0.0.1/', 'multicast address'],
    ['carrier-grade NAT', 'https://100.64.0.1/', 'carrier-grade NAT address'],
    ['the metadata name', 'https://metadata.google.internal/computeMetadata/v1/', 'local name'],
    ["the daemon's own API", 'https://localhost:3000/api/v1/billing/run', 'local name'],
    ['credentials in the URL', 'https://user:secret@merchant.example/hooks', 'credentials'],
  ])('refuses %s with 400 naming url, and stores nothing', async (_case, url, reason) => {
    const res = await t.api().post('/api/v1/webhook-endpoints').send({ url }).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', field: 'url' });
    expect(JSON.stringify(res.body.message)).toContain(reason);
    expect(JSON.stringify(res.body)).not.toContain('secret@');
    expect((await t.api().get('/api/v1/webhook-endpoints')).body.items).toEqual([]);
  });

  it('refuses a name that resolves to an internal address, accepts one that resolves to a public one', async () => {
    dns.set('inside.merchant.example', [PUBLIC_ADDRESS, '10.1.2.3']);
    const inside = await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://inside.merchant.example/hooks' }).expect(400);
    expect(inside.body.message.join(' ')).toContain('inside.merchant.example resolves to a private address (10.1.2.3)');
    dns.set('merchant.example', [PUBLIC_ADDRESS]);
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://merchant.example/hooks' }).expect(201);
    // A name that does not resolve yet is left to the check at delivery.
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://not-yet.merchant.example/hooks' }).expect(201);
  });

  it('refuses a PATCH to an internal URL and leaves the endpoint as it was', async () => {
    dns.set('merchant.example', [PUBLIC_ADDRESS]);
    const { id } = await createEndpoint(t.api, { url: 'https://merchant.example/hooks' });
    const res = await t.api().patch(`/api/v1/webhook-endpoints/${id}`).send({ url: 'https://0xA9FEA9FE/latest/meta-data/', enabled: false }).expect(400);
    expect(res.body.field).toBe('url');
    expect((await t.api().get(`/api/v1/webhook-endpoints/${id}`)).body).toMatchObject({ url: 'https://merchant.example/hooks', enabled: true });
  });

  it('opens the hosts of WEBHOOK_ALLOWED_HOSTS (a name, a CIDR range) and nothing else', async () => {
    dns.set('hooks.corp.example', ['10.1.1.1']);
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://hooks.corp.example/billing' }).expect(201);
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://10.9.1.2/billing' }).expect(201);
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://10.8.1.2/billing' }).expect(400);
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'http://hooks.corp.example/billing' }).expect(400);
  });

  it('caps the number of endpoints (422), so one event cannot become thousands of requests', async () => {
    dns.set('merchant.example', [PUBLIC_ADDRESS]);
    for (let i = 0; i < 6; i++) await createEndpoint(t.api, { url: `https://merchant.example/hooks?n=${i}` });
    const res = await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://merchant.example/hooks?n=6' }).expect(422);
    expect(res.body).toMatchObject({ code: 'business_rule' });
    expect(res.body.message).toContain('At most 6 webhook endpoints');
  });

  it('refuses at delivery a name that now resolves to loopback (DNS rebinding), without connecting', async () => {
    dns.set('rebind.merchant.example', [PUBLIC_ADDRESS]);
    const { id } = await createEndpoint(t.api, { url: 'https://rebind.merchant.example/hooks' });
    dns.set('rebind.merchant.example', ['127.0.0.1']);
    const eventId = await subscriptionCreated(t);
    const attempt = await attemptOf(t, id, eventId);
    expect(attempt).toMatchObject({ status: 'failed', responseStatus: null, error: 'target_refused: loopback address' });
  });
});

describe('Webhook targets outside production', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  let internal: Server;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000' }, webhookTuning: { ...FAST_WEBHOOK_TUNING, lookupHost } });
    receiver = await MerchantReceiver.start();
    // An internal service whose replies must never show in the deliveries list.
    internal = createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('postgres password=hunter2 at 10.0.0.7'));
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    internal?.closeAllConnections();
    await new Promise((resolve) => internal?.close(resolve));
  });

  it('allows loopback for a local receiver, and refuses the name once it resolves to a link-local address', async () => {
    const port = new URL(receiver.url).port;
    dns.set('hooks.dev.example', ['127.0.0.1']);
    const { id, secret } = await createEndpoint(t.api, { url: `http://hooks.dev.example:${port}/hooks` });
    receiver.useSecret(secret);
    const first = await subscriptionCreated(t);
    await until(async () => receiver.deliveries.find((d) => d.id === first), 15_000, 'the first delivery');
    expect(await attemptOf(t, id, first)).toMatchObject({ status: 'succeeded', error: null });

    dns.set('hooks.dev.example', ['169.254.169.254']);
    const second = await subscriptionCreated(t);
    expect(await attemptOf(t, id, second)).toMatchObject({ status: 'failed', responseStatus: null, error: 'target_refused: link-local address' });
    expect(receiver.deliveries.map((d) => d.id)).not.toContain(second);
  });

  it('still refuses private addresses, and says what failed without an internal reply or a port oracle beyond the code', async () => {
    await t.api().post('/api/v1/webhook-endpoints').send({ url: 'http://10.0.0.1/hooks' }).expect(400);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const talking = await createEndpoint(t.api, { url: `http://127.0.0.1:${(internal.address() as AddressInfo).port}/` });
    const refused = await createEndpoint(t.api, { url: `http://127.0.0.1:${closedPort}/` });
    const eventId = await subscriptionCreated(t);
    const answered = await attemptOf(t, talking.id, eventId);
    expect(answered).toMatchObject({ status: 'failed', responseStatus: 500, error: 'http_500' });
    expect(await attemptOf(t, refused.id, eventId)).toMatchObject({ status: 'failed', responseStatus: null, error: 'connection_refused' });
    const listed = JSON.stringify((await t.api().get(`/api/v1/webhook-endpoints/${talking.id}/deliveries`)).body);
    expect(listed).not.toContain('hunter2');
  });
});
