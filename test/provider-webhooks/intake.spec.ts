import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign } from 'node:crypto';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { rawRequest } from '../support/raw-http';
import { CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { waitFor } from '../support/wait';

interface Tapped {
  body: Buffer;
  signature: string;
}

/** A second receiver registered at the sandbox: it keeps what the provider really sent, signature and all. */
async function startTap(): Promise<{ url: string; tapped: Tapped[]; close(): Promise<void> }> {
  const tapped: Tapped[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      tapped.push({ body: Buffer.concat(chunks), signature: String(req.headers['content-signature']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tap`;
  return { url, tapped, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * POST /webhooks/provider takes nothing but the provider's own signed events: unsigned, forged, tampered or
 * otherwise-keyed deliveries get a 4xx and store nothing, and a repeat of one event is stored once.
 */
describe('provider webhook intake', () => {
  let t: TestApp;
  let tap: Awaited<ReturnType<typeof startTap>>;
  let db: Client;

  const storedEvents = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM provider_events')).rows[0].n);
  const post = (body: Buffer | string, headers: Record<string, string>, path = '/webhooks/provider') =>
    rawRequest(t.url as string, { method: 'POST', path, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(body) });

  beforeAll(async () => {
    await resetDatabase();
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    t = await startTestApp({ env: { SCHEDULER_ENABLED: 'true' }, providerWebhooksAt: true });
    tap = await startTap();
    // Signed with the same key as the daemon's: the provider keeps one key for all of a merchant's processing webhooks.
    await t.app.get(ProcessingGateway).createWebhook({ scope: { topic: 'CustomersTopic', shopID: SANDBOX_SHOP_ID, eventTypes: ['CustomerBindingStarted'] }, url: tap.url });
    await waitFor(
      async () => (await db.query(`SELECT count(*)::int AS n FROM provider_webhooks WHERE status = 'active'`)).rows[0].n as number,
      (n) => n === 2,
    );
    const customer = await t.sandboxClient.createCustomer();
    await t.sandboxClient.bindCard(customer.customer.id, CARDS.success);
    await waitFor(async () => tap.tapped.length, (n) => n >= 1);
    // The daemon got the binding's events directly: started, succeeded, and the customer ready.
    await waitFor(storedEvents, (n) => n >= 3);
  });

  afterAll(async () => {
    await t?.close();
    await tap?.close();
    await db?.end();
  });

  it('stores a repeat of a genuine event once, and answers it 200 each time', async () => {
    const { body, signature } = tap.tapped[0];
    const event = JSON.parse(body.toString('utf8')) as { topic: string; eventID: number; customer: { id: string } };
    const copies = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM provider_events WHERE topic = $1 AND object_id = $2 AND payload @> $3', [
        event.topic, event.customer.id, JSON.stringify({ eventID: event.eventID }),
      ])).rows[0].n);
    expect(await copies()).toBe(1);
    for (let i = 0; i < 3; i++) {
      const res = await post(body, { 'content-signature': signature });
      expect({ status: res.status, body: res.json }).toEqual({ status: 200, body: { received: true, duplicate: true } });
    }
    expect(await copies()).toBe(1);
  });

  it('refuses unsigned, forged, tampered and otherwise-keyed deliveries, storing nothing', async () => {
    const { body, signature } = tap.tapped[0];
    const before = await storedEvents();
    const event = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const tampered = Buffer.from(JSON.stringify({ ...event, eventID: Number(event.eventID) + 1000 }));
    const foreign = sign('sha256', tampered, other.privateKey).toString('base64url');
    const cases: [string, Buffer, Record<string, string>, number][] = [
      ['no signature', body, {}, 401],
      ['a garbled header', body, { 'content-signature': 'sha256=abc' }, 401],
      ['a random digest', body, { 'content-signature': `alg=RS256; digest=${Buffer.alloc(256, 7).toString('base64url')}==` }, 401],
      ['a genuine signature over another body', tampered, { 'content-signature': signature }, 401],
      ['a signature by a key the provider never gave', tampered, { 'content-signature': `alg=RS256; digest=${foreign}=` }, 401],
      ['a genuine delivery sent as text', body, { 'content-signature': signature, 'content-type': 'text/plain' }, 415],
    ];
    for (const [name, payload, headers, status] of cases) {
      const res = await post(payload, headers);
      expect({ name, status: res.status, code: (res.json as { code?: string } | undefined)?.code }).toEqual({ name, status, code: expect.any(String) });
    }
    // Another spelling of the path reaches the handler without the exact bytes: refused, never verified against a re-encoding.
    const respelled = await post(body, { 'content-signature': signature }, '/Webhooks/Provider');
    expect(respelled.status).toBeGreaterThanOrEqual(400);
    expect(respelled.status).toBeLessThan(500);
    expect(await storedEvents()).toBe(before);
  });

  it('keeps no payment tool token, session or card detail of the events it stores', async () => {
    const genuine = tap.tapped.map((d) => d.body.toString('utf8')).join('\n');
    expect(genuine).toContain('paymentSession');
    const stored = (await db.query<{ payload: string }>('SELECT payload::text AS payload FROM provider_events')).rows.map((r) => r.payload).join('\n');
    expect(stored).not.toMatch(/paymentToolToken|paymentSession|paymentResource|cardNumber|424242/);
  });

  it('verifies each key only for its own topic, and holds signed events to the admin body rules', async () => {
    const wallet = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const der = wallet.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    await db.query(`INSERT INTO provider_webhooks (api, topic, scope_key, url, status, public_key) VALUES ('wallet', 'WithdrawalsTopic', 'test-identity|test-wallet', $1, 'active', $2)`, [
      `${t.url}/webhooks/provider`,
      der,
    ]);
    const signed = (text: string | Buffer) => {
      const body = Buffer.from(text);
      return [body, { 'content-signature': `alg=RS256; digest=${sign('sha256', body, wallet.privateKey).toString('base64url')}` }] as const;
    };
    const withdrawal = (eventID: number, extra = '') => `{"eventID":${eventID},"topic":"WithdrawalTopic","eventType":"WithdrawalStatusChanged","withdrawalID":"w-test-1"${extra}}`;
    // Its own topic: accepted once the daemon has read the new key.
    await waitFor(async () => (await post(...signed(withdrawal(1)))).status, (status) => status === 200, { timeoutMs: 10_000, everyMs: 250, what: 'the wallet key in use' });
    const before = await storedEvents();

    const invoice = JSON.stringify({ eventID: 77, topic: 'InvoicesTopic', eventType: 'PaymentCaptured', invoice: { id: 'forged-invoice' }, payment: { id: '1', status: 'captured' } });
    const cases: [string, string | Buffer, number, string][] = [
      ['an invoice event signed with a wallet key', invoice, 401, 'unauthorized'],
      ['a NUL character', withdrawal(2, ',"note":"a\\u0000b"'), 400, 'validation_failed'],
      ['a lone surrogate', withdrawal(3, ',"note":"\\ud800"'), 400, 'validation_failed'],
      ['50,000 levels of nesting', withdrawal(4, `,"deep":${'['.repeat(50_000)}${']'.repeat(50_000)}`), 400, 'body_too_deep'],
      ['invalid UTF-8', Buffer.concat([Buffer.from(`${withdrawal(5).slice(0, -1)},"note":"`), Buffer.from([0xff]), Buffer.from('"}')]), 400, 'invalid_json'],
    ];
    for (const [name, text, status, code] of cases) {
      const res = await post(...signed(text));
      expect({ name, status: res.status, code: (res.json as { code?: string } | undefined)?.code }).toEqual({ name, status, code });
    }
    expect(await storedEvents()).toBe(before);
  });

  it('needs no admin token, and is the only public route that takes a body', async () => {
    const { body, signature } = tap.tapped[0];
    const res = await post(body, { 'content-signature': signature, authorization: 'Bearer wrong-token' });
    expect(res.status).toBe(200);
  });
});
