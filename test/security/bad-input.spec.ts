import type { Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { ERROR_CODES, ErrorCode } from '../../src/common/errors/error-codes';
import { authorizedDestination, futureExpDate, setUpPayouts } from '../payouts/support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from '../payouts/support/payout-test-app';
import { listenOnLoopback, rawRequest } from '../support/raw-http';
import { CARDS } from '../support/test-cards';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';

interface Case {
  name: string;
  method: string;
  path: string;
  /** Content-Type application/json unless given; `null` sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The exact status expected; any 4xx when unset. */
  status?: number;
}

const json = (value: unknown) => JSON.stringify(value);
const deep = (levels: number) => `{"metadata":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
const MIB = 1024 * 1024;

/**
 * One fingerprint of every row of every table (but the processes' heartbeats, and the rate limit's buckets, which
 * count every request, refused or not): a refused request must leave it as it was.
 */
async function databaseFingerprint(db: Client): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('migrations', 'workers', 'rate_limit_buckets') ORDER BY 1`);
  const out: Record<string, string> = {};
  for (const { tablename } of tables) {
    const { rows } = await db.query<{ h: string | null }>(`SELECT md5(string_agg(r, '|' ORDER BY r)) AS h FROM (SELECT row_to_json(t)::text AS r FROM "${tablename}" t) x`);
    out[tablename] = rows[0].h ?? 'empty';
  }
  return out;
}

/** The same malformed transport sent to every route that takes a body. */
function transportCases(method: string, path: string): Case[] {
  const ok = json({});
  return [
    { name: 'JSON sent as text/plain', method, path, contentType: 'text/plain', body: ok, status: 415 },
    { name: 'a body with no content type', method, path, contentType: null, body: ok, status: 415 },
    { name: 'form encoding', method, path, contentType: 'application/x-www-form-urlencoded', body: 'a=1', status: 415 },
    { name: 'charset latin1', method, path, contentType: 'application/json; charset=latin1', body: ok, status: 415 },
    { name: 'charset utf-16', method, path, contentType: 'application/json; charset=utf-16', body: Buffer.from(ok, 'utf16le'), status: 415 },
    { name: 'a malformed content type', method, path, contentType: 'application/json; charset', body: ok, status: 415 },
    { name: 'gzip body', method, path, headers: { 'content-encoding': 'gzip' }, body: gzipSync(ok), status: 415 },
    { name: 'an unknown content encoding', method, path, headers: { 'content-encoding': 'snappy' }, body: ok, status: 415 },
    { name: 'a body over 1 MiB', method, path, body: json({ name: 'x'.repeat(MIB + 10) }), status: 413 },
    { name: 'JSON nested 40 levels', method, path, body: deep(40), status: 400 },
    { name: 'JSON nested 100,000 levels', method, path, body: '['.repeat(100_000) + ']'.repeat(100_000), status: 400 },
    { name: 'invalid JSON', method, path, body: '{"name": ', status: 400 },
    { name: 'invalid UTF-8 bytes', method, path, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), status: 400 },
    { name: 'a top-level array', method, path, body: '[]', status: 400 },
    { name: 'a top-level string', method, path, body: '"x"', status: 400 },
    { name: 'a top-level __proto__', method, path, body: '{"__proto__":{"admin":true}}', status: 400 },
    { name: 'a top-level constructor', method, path, body: '{"constructor":{"prototype":{}}}', status: 400 },
    { name: 'a NUL in an unknown field', method, path, body: json({ zzz: 'a\u0000' }), status: 400 },
  ];
}

describe('No input breaks the admin API: every refusal is a 4xx that changes nothing', () => {
  let t: PayoutTestApp;
  let base: string;
  let db: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp({ env: { TEST_CLOCK: 'true', LOG_LEVEL: 'silent' } });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    await t.api().get('/api/v1/test-clock').expect(200);
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    const customer = await t.api().post('/api/v1/customers').send({ email: 'bad-input@example.com' }).expect(201);
    const subscription = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
    await setUpPayouts(t);
    const destination = await authorizedDestination(t, CARDS.success);
    const payout = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 100, currency: 'RUB' }).expect(202);
    const batch = await t.api().post('/api/v1/payouts/batches').send({ items: [{ destinationId: destination.id, amount: 100, currency: 'RUB' }] }).expect(202);
    const endpoint = await t.api().post('/api/v1/webhook-endpoints').send({ url: 'https://merchant.example/hooks' }).expect(201);
    const [event] = (await t.api().get('/api/v1/events?limit=1').expect(200)).body.items;
    Object.assign(ids, {
      plan: plan.body.id,
      customer: customer.body.id,
      subscription: subscription.body.id,
      destination: destination.id,
      payout: payout.body.id,
      batch: batch.body.id,
      endpoint: endpoint.body.id,
      event: event.id,
    });
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  function allCases(): Case[] {
    const { plan, customer, subscription, destination, payout, batch, endpoint, event } = ids;
    const unknown = '0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const bodyRoutes: [string, string][] = [
      ['POST', '/api/v1/plans'],
      ['PATCH', `/api/v1/plans/${plan}`],
      ['POST', `/api/v1/plans/${plan}/archive`],
      ['POST', '/api/v1/customers'],
      ['POST', `/api/v1/customers/${customer}/bindings`],
      ['POST', `/api/v1/customers/${customer}/refresh`],
      ['POST', '/api/v1/subscriptions'],
      ['POST', `/api/v1/subscriptions/${subscription}/cancel`],
      ['POST', `/api/v1/subscriptions/${subscription}/pause`],
      ['POST', `/api/v1/subscriptions/${subscription}/resume`],
      ['POST', `/api/v1/charges/${unknown}/retry`],
      ['POST', '/api/v1/billing/run'],
      ['POST', '/api/v1/test-clock'],
      ['POST', '/api/v1/payouts/setup'],
      ['POST', '/api/v1/payouts/destinations'],
      ['POST', '/api/v1/payouts'],
      ['POST', '/api/v1/payouts/batches'],
      ['POST', '/api/v1/webhook-endpoints'],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint}`],
      ['POST', `/api/v1/webhook-endpoints/${endpoint}/rotate-secret`],
      ['POST', `/api/v1/events/${event}/redeliver`],
    ];
    const cases = bodyRoutes.flatMap(([method, path]) => transportCases(method, path));
    const payoutBody = { destinationId: destination, amount: 100, currency: 'RUB' };
    const card = { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV' };
    const field = (name: string, method: string, path: string, body: unknown, status = 400): Case => ({ name, method, path, body: typeof body === 'string' ? body : json(body), status });
    cases.push(
      field('payout metadata with NUL', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { note: 'a\u0000' } }),
      field('payout metadata with a lone surrogate', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { note: '\ud800' } }),
      field('payout metadata key with a lone surrogate', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { '\udc00': 1 } }),
      field('payout metadata of 20 KB', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { note: 'x'.repeat(20_000) } }),
      field('payout metadata of 4 MB', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { note: 'x'.repeat(4 * MIB) } }, 413),
      field('payout metadata with 51 keys', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }),
      field('payout metadata key __proto__', 'POST', '/api/v1/payouts', `{"destinationId":"${destination}","amount":100,"currency":"RUB","metadata":{"__proto__":{"x":1}}}`),
      field('payout metadata key constructor', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: { constructor: 1 } }),
      field('payout metadata as an array', 'POST', '/api/v1/payouts', { ...payoutBody, metadata: [1] }),
      field('payout amount as a fraction', 'POST', '/api/v1/payouts', { ...payoutBody, amount: 1.5 }),
      field('payout amount as a string', 'POST', '/api/v1/payouts', { ...payoutBody, amount: '100' }),
      field('payout amount beyond 2^53', 'POST', '/api/v1/payouts', `{"destinationId":"${destination}","amount":123456789012345678901234567890,"currency":"RUB"}`),
      field('payout to an unknown destination', 'POST', '/api/v1/payouts', { ...payoutBody, destinationId: unknown }, 422),
      field('payout in another currency', 'POST', '/api/v1/payouts', { ...payoutBody, currency: 'usd' }),
      field('batch item metadata with NUL', 'POST', '/api/v1/payouts/batches', { items: [{ ...payoutBody, metadata: { a: '\u0000' } }] }),
      field('batch item metadata with a lone surrogate', 'POST', '/api/v1/payouts/batches', { items: [{ ...payoutBody, metadata: { a: 'x\udbff' } }] }),
      field('batch with no items', 'POST', '/api/v1/payouts/batches', { items: [] }),
      field('batch items not an array', 'POST', '/api/v1/payouts/batches', { items: { a: 1 } }),
      field('batch of 10,001 items', 'POST', '/api/v1/payouts/batches', { items: Array.from({ length: 10_001 }, () => ({ destinationId: destination, amount: 1, currency: 'RUB' })) }),
      field('destination name with NUL', 'POST', '/api/v1/payouts/destinations', { name: 'a\u0000', currency: 'RUB', card }),
      field('destination name with a lone surrogate', 'POST', '/api/v1/payouts/destinations', { name: '\ud83d', currency: 'RUB', card }),
      field('destination card holder with NUL', 'POST', '/api/v1/payouts/destinations', { name: 'n', currency: 'RUB', card: { ...card, cardHolder: 'A\u0000' } }),
      field('destination metadata with NUL', 'POST', '/api/v1/payouts/destinations', { name: 'n', currency: 'RUB', card, metadata: { a: '\u0000' } }),
      field('destination metadata of 4 MB', 'POST', '/api/v1/payouts/destinations', { name: 'n', currency: 'RUB', card, metadata: { a: 'x'.repeat(4 * MIB) } }, 413),
      field('destination card failing Luhn', 'POST', '/api/v1/payouts/destinations', { name: 'n', currency: 'RUB', card: { ...card, cardNumber: CARDS.badChecksum } }),
      field('destination card token with NUL', 'POST', '/api/v1/payouts/destinations', { name: 'n', currency: 'RUB', cardToken: 'tok\u0000' }),
      field('setup identity name with NUL', 'POST', '/api/v1/payouts/setup', { identityName: '\u0000', provider: 'test', class: 'company', walletName: 'w', currency: 'RUB' }),
      field('test clock advanced past the year 9999', 'POST', '/api/v1/test-clock', { advance: '99999999999999d' }),
      field('test clock advanced by a huge number', 'POST', '/api/v1/test-clock', { advance: `${'9'.repeat(400)}d` }),
      field('test clock set to year 275760', 'POST', '/api/v1/test-clock', { now: '+275760-09-13T00:00:00.000Z' }),
      field('test clock with both fields', 'POST', '/api/v1/test-clock', { now: '2030-01-01T00:00:00.000Z', advance: '1d' }),
      field('subscription starting in 2001', 'POST', '/api/v1/subscriptions', { customerId: customer, planId: plan, startAt: '2001-01-01T00:00:00.000Z' }),
      field('subscription starting in 9999', 'POST', '/api/v1/subscriptions', { customerId: customer, planId: plan, startAt: '9999-01-01T00:00:00.000Z' }),
      field('subscription metadata key __proto__', 'POST', '/api/v1/subscriptions', `{"customerId":"${customer}","planId":"${plan}","metadata":{"__proto__":{}}}`),
      field('subscription in an unknown zone', 'POST', '/api/v1/subscriptions', { customerId: customer, planId: plan, timezone: 'Mars/Olympus' }),
      field('customer email with NUL', 'POST', '/api/v1/customers', { email: 'a\u0000@example.com' }),
      field('customer metadata nested 33 levels', 'POST', '/api/v1/customers', deep(33)),
      field('binding with a token the provider refuses', 'POST', `/api/v1/customers/${customer}/bindings`, { paymentToolToken: 'not-a-real-token', paymentSession: 'not-a-session' }, 422),
      field('binding with NUL in the token', 'POST', `/api/v1/customers/${customer}/bindings`, { paymentToolToken: 'a\u0000', paymentSession: 's' }),
      field('plan patch changing the price', 'PATCH', `/api/v1/plans/${plan}`, { lines: [{ product: 'x', price: 1 }] }),
      field('plan patch with metadata of 20 KB', 'PATCH', `/api/v1/plans/${plan}`, { metadata: { a: 'x'.repeat(20_000) } }),
      field('plan with a price beyond 2^53', 'POST', '/api/v1/plans', `{"name":"n","product":"p","currency":"RUB","interval":"month","lines":[{"product":"x","price":1e300}]}`),
      field('cancel with a string flag', 'POST', `/api/v1/subscriptions/${subscription}/cancel`, { atPeriodEnd: 'yes' }),
      field('billing run with a field', 'POST', '/api/v1/billing/run', { force: true }),
      field('webhook endpoint without a url', 'POST', '/api/v1/webhook-endpoints', { events: ['charge.failed'] }),
      field('webhook endpoint with an ftp url', 'POST', '/api/v1/webhook-endpoints', { url: 'ftp://merchant.example/hooks' }),
      field('webhook endpoint with a relative url', 'POST', '/api/v1/webhook-endpoints', { url: '/hooks' }),
      field('webhook endpoint url with NUL', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/\u0000' }),
      field('webhook endpoint url of 3000 characters', 'POST', '/api/v1/webhook-endpoints', { url: `https://merchant.example/${'a'.repeat(3000)}` }),
      field('webhook endpoint url as a number', 'POST', '/api/v1/webhook-endpoints', { url: 42 }),
      field('webhook endpoint with * and a type', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: ['*', 'charge.failed'] }),
      field('webhook endpoint with an unknown type', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: ['charge.refunded'] }),
      field('webhook endpoint with no types', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: [] }),
      field('webhook endpoint types not a list', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: 'charge.failed' }),
      field('webhook endpoint with a repeated type', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: ['charge.failed', 'charge.failed'] }),
      field('webhook endpoint types null', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', events: null }),
      field('webhook endpoint description with NUL', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', description: 'a\u0000' }),
      field('webhook endpoint description of 1001 characters', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', description: 'd'.repeat(1001) }),
      field('webhook endpoint with its own secret', 'POST', '/api/v1/webhook-endpoints', { url: 'https://merchant.example/h', secret: 'whsec_AAAA' }),
      field('webhook endpoint patch enabling with a string', 'PATCH', `/api/v1/webhook-endpoints/${endpoint}`, { enabled: 'yes' }),
      field('webhook endpoint patch with a lone surrogate url', 'PATCH', `/api/v1/webhook-endpoints/${endpoint}`, { url: 'https://merchant.example/\ud800' }),
      field('webhook endpoint patch with url null', 'PATCH', `/api/v1/webhook-endpoints/${endpoint}`, { url: null }),
      field('webhook endpoint patch of an unknown one', 'PATCH', `/api/v1/webhook-endpoints/${unknown}`, { enabled: false }, 404),
      field('rotating the secret with a body', 'POST', `/api/v1/webhook-endpoints/${endpoint}/rotate-secret`, { secret: 'whsec_AAAA' }),
      field('rotating the secret of an unknown endpoint', 'POST', `/api/v1/webhook-endpoints/${unknown}/rotate-secret`, {}, 404),
      field('redelivery to a malformed endpoint id', 'POST', `/api/v1/events/${event}/redeliver`, { endpointId: 'not-a-uuid' }),
      field('redelivery to an unknown endpoint', 'POST', `/api/v1/events/${event}/redeliver`, { endpointId: unknown }, 404),
      field('redelivery of an unknown event', 'POST', `/api/v1/events/${unknown}/redeliver`, {}, 404),
      field('redelivery with an unknown field', 'POST', `/api/v1/events/${event}/redeliver`, { all: true }),
      { name: 'an Idempotency-Key of 65 characters', method: 'POST', path: '/api/v1/plans', headers: { 'idempotency-key': 'k'.repeat(65) }, body: json({}), status: 400 },
    );
    const lists = [
      '/api/v1/plans',
      '/api/v1/customers',
      '/api/v1/subscriptions',
      '/api/v1/charges',
      '/api/v1/payouts',
      `/api/v1/subscriptions/${subscription}/charges`,
      `/api/v1/subscriptions/${subscription}/events`,
      `/api/v1/customers/${customer}/bindings`,
      '/api/v1/payouts/destinations',
      '/api/v1/payouts/batches',
      '/api/v1/events',
      '/api/v1/webhook-endpoints',
      `/api/v1/webhook-endpoints/${endpoint}/deliveries`,
    ];
    for (const list of lists) {
      // Cursors that decode to instants PostgreSQL cannot hold, and numbers that are not plain decimal digits.
      const outOfRange = ['-271821-04-20T00:00:00.000Z|1', '+275760-09-13T00:00:00.000Z|1', '0000-01-01T00:00:00.000Z|1'].map((c) => `cursor=${Buffer.from(c).toString('base64url')}`);
      const numbers = ['limit=1e2', 'limit=0x10', 'limit=%2B5', 'limit=%205', 'createdAfter=0000-01-01T00:00:00Z', 'createdBefore=%2B275760-09-13T00:00:00Z'];
      for (const query of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'limit=1&limit=2', 'cursor=not-a-cursor', 'cursor=%00', 'status=bogus', 'unknown=1', ...outOfRange, ...numbers]) {
        cases.push({ name: `list ${query}`, method: 'GET', path: `${list}?${query}`, status: 400 });
      }
    }
    for (const one of ['plans', 'customers', 'subscriptions', 'charges', 'payouts', 'payouts/destinations', 'payouts/batches', 'events', 'webhook-endpoints']) {
      cases.push({ name: `${one} by a malformed id`, method: 'GET', path: `/api/v1/${one}/not-a-uuid`, status: 400 });
      cases.push({ name: `${one} by an unknown id`, method: 'GET', path: `/api/v1/${one}/${unknown}`, status: 404 });
    }
    cases.push(
      { name: 'payouts of a malformed batch', method: 'GET', path: '/api/v1/payouts?batchId=not-a-uuid', status: 400 },
      { name: 'a payout by an upper-case id with junk', method: 'GET', path: `/api/v1/payouts/${payout.toUpperCase()}x`, status: 400 },
      { name: 'a batch by its id with junk', method: 'GET', path: `/api/v1/payouts/batches/${batch}%00`, status: 400 },
      { name: 'events of a type that does not exist', method: 'GET', path: '/api/v1/events?type=charge.refunded', status: 400 },
      { name: 'deliveries of a malformed event id', method: 'GET', path: `/api/v1/webhook-endpoints/${endpoint}/deliveries?eventId=x`, status: 400 },
      { name: 'deliveries of an unknown endpoint', method: 'GET', path: `/api/v1/webhook-endpoints/${unknown}/deliveries`, status: 404 },
      { name: 'deleting a malformed webhook endpoint id', method: 'DELETE', path: '/api/v1/webhook-endpoints/not-a-uuid', status: 400 },
      { name: 'deleting an unknown webhook endpoint', method: 'DELETE', path: `/api/v1/webhook-endpoints/${unknown}`, status: 404 },
    );
    return cases;
  }

  it('answers at least 200 malformed requests across every route with a 4xx, and changes nothing', async () => {
    const cases = allCases();
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const byStatus: Record<number, number> = {};
    const wrong: string[] = [];
    for (const c of cases) {
      const before = await databaseFingerprint(db);
      const headers: Record<string, string> = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...c.headers };
      if (c.contentType !== null && c.body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
      const res = await rawRequest(base, { method: c.method, path: c.path, headers, body: c.body });
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const after = await databaseFingerprint(db);
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      const statusOk = c.status === undefined ? res.status >= 400 && res.status < 500 : res.status === c.status;
      const { message, code } = (res.json ?? {}) as { message?: unknown; code?: string };
      // A code from the closed list, and one that goes with the status answered.
      const codeOk = code !== undefined && code in ERROR_CODES && ERROR_CODES[code as ErrorCode].status === res.status;
      if (!statusOk || changed.length > 0 || message === undefined || !codeOk) {
        wrong.push(`${c.method} ${c.path.slice(0, 80)} (${c.name}): ${res.status} ${res.text.slice(0, 160)}${changed.length ? `; changed ${changed.join(', ')}` : ''}`);
      }
    }
    console.log(`bad input: ${cases.length} requests, answers by status ${JSON.stringify(byStatus)}`);
    expect(wrong).toEqual([]);
    expect(Object.keys(byStatus).filter((s) => Number(s) >= 500)).toEqual([]);
  });
});
