import type { Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { TestClockController } from '../../src/common/clock/test-clock.controller';
import { SystemClock } from '../../src/common/clock/system-clock';
import { ERROR_CODES } from '../../src/common/errors/error-codes';
import { listenOnLoopback, rawRequest, RawResponse } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_ADMIN_TOKEN, testConfig } from '../support/test-config';
import { resetDatabase } from '../support/test-database';

const UNKNOWN = '0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const PLAN = { name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] };

/** Every error answer a client can branch on: Nest's three fields as before, plus a code from the closed list. */
describe('Error bodies carry a stable code (and the field at fault)', () => {
  let t: TestApp;
  let base: string;
  const ids: Record<string, string> = {};

  const send = (method: string, path: string, options: { body?: string | Buffer; headers?: Record<string, string>; token?: boolean } = {}): Promise<RawResponse> => {
    const headers: Record<string, string> = { ...(options.token === false ? {} : { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }), ...options.headers };
    if (options.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    return rawRequest(base, { method, path, headers, body: options.body });
  };
  const post = (path: string, body: unknown, headers?: Record<string, string>) => send('POST', path, { body: JSON.stringify(body), headers });

  /** The answer, with the status, Nest's fields and the code checked in one assertion so a failure shows all of it. */
  const expectError = (res: RawResponse, status: number, code: keyof typeof ERROR_CODES, extra: Record<string, unknown> = {}) =>
    expect({ status: res.status, body: res.json }).toEqual({
      status,
      body: expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.anything(), code, ...extra }),
    });

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    ids.plan = (await t.api().post('/api/v1/plans').send(PLAN).expect(201)).body.id;
    ids.archived = (await t.api().post('/api/v1/plans').send(PLAN).expect(201)).body.id;
    await t.api().post(`/api/v1/plans/${ids.archived}/archive`).send({}).expect(200);
    ids.customer = (await t.api().post('/api/v1/customers').send({}).expect(201)).body.id;
    ids.subscription = (await t.api().post('/api/v1/subscriptions').send({ customerId: ids.customer, planId: ids.plan }).expect(201)).body.id;
  });
  afterAll(() => t?.close());

  it('names every code it may answer, each with its status and meaning', () => {
    for (const [code, { status, meaning }] of Object.entries(ERROR_CODES)) {
      expect({ code, valid: /^[a-z]+(_[a-z]+)*$/.test(code), meaning: meaning.length > 10, status: status === null || (status >= 400 && status < 600) }).toEqual({
        code,
        valid: true,
        meaning: true,
        status: true,
      });
    }
  });

  it('400 validation_failed names the first failing field as a path, and lists every one in message order', async () => {
    const res = await post('/api/v1/plans', { ...PLAN, lines: [{ product: 'x', price: 0 }, { product: '', price: 1 }], trialDays: -1 });
    expectError(res, 400, 'validation_failed', { error: 'Bad Request' });
    const body = res.json as { message: string[]; field: string; fields: string[] };
    expect(body.fields).toEqual(expect.arrayContaining(['trialDays', 'lines.0.price', 'lines.1.product']));
    expect(body.field).toBe(body.fields[0]);
    // Each listed field is the one its message (Nest's wording, unchanged) starts with, in the same order.
    const messageFields = body.message.map((m) => m.split(' ')[0]);
    expect([...new Set(messageFields)]).toEqual(body.fields);
  });

  it('400 validation_failed for unknown fields, path and query parameters, headers and service-level field checks', async () => {
    expectError(await post('/api/v1/customers', { nickname: 'x' }), 400, 'validation_failed', { field: 'nickname', message: ['property nickname should not exist'] });
    expectError(await send('GET', '/api/v1/plans/not-a-uuid'), 400, 'validation_failed', { field: 'id', message: ['id must be a UUID'] });
    expectError(await send('GET', '/api/v1/plans?limit=0'), 400, 'validation_failed', { field: 'limit' });
    expectError(await send('GET', '/api/v1/plans?cursor=bm90LWEtY3Vyc29y'), 400, 'validation_failed', { field: 'cursor' });
    expectError(await post('/api/v1/plans', PLAN, { 'idempotency-key': 'k'.repeat(65) }), 400, 'validation_failed', { field: 'Idempotency-Key' });
    expectError(await post('/api/v1/customers', { metadata: { note: 'a\u0000' } }), 400, 'validation_failed', { field: 'metadata.note' });
    expectError(await post('/api/v1/subscriptions', { customerId: ids.customer, planId: ids.plan, startAt: '9999-01-01T00:00:00.000Z' }), 400, 'validation_failed', {
      field: 'startAt',
    });
    expectError(await post('/api/v1/subscriptions', { customerId: ids.customer, planId: ids.plan, timezone: 'Mars/Olympus' }), 400, 'validation_failed', {
      field: 'timezone',
    });
    expectError(await post('/api/v1/test-clock', { advance: '99999999999999d' }), 400, 'validation_failed', { field: 'advance' });
  });

  it('400 for bodies that are not JSON objects, nest too deep, or cannot be read', async () => {
    expectError(await send('POST', '/api/v1/plans', { body: '{"name": ' }), 400, 'invalid_json');
    expectError(await send('POST', '/api/v1/plans', { body: '[]' }), 400, 'invalid_json');
    expectError(await send('POST', '/api/v1/plans', { body: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]) }), 400, 'invalid_json');
    expectError(await send('POST', '/api/v1/plans', { body: '['.repeat(40) + ']'.repeat(40) }), 400, 'body_too_deep');
    expectError(await send('GET', '/api/v1/plans/%E0%A4%A'), 400, 'malformed_request');
  });

  it('401 unauthorized without the token or with a wrong one', async () => {
    expectError(await send('GET', '/api/v1/plans', { token: false }), 401, 'unauthorized', { error: 'Unauthorized' });
    expectError(await send('GET', '/api/v1/plans', { token: false, headers: { authorization: 'Bearer wrong' } }), 401, 'unauthorized');
  });

  it('404 not_found for an unknown id, route_not_found for an unknown route', async () => {
    expectError(await send('GET', `/api/v1/plans/${UNKNOWN}`), 404, 'not_found', { error: 'Not Found' });
    expectError(await post('/api/v1/subscriptions', { customerId: UNKNOWN, planId: ids.plan }), 404, 'not_found', { field: 'customerId' });
    expectError(await send('GET', '/api/v1/no-such-thing'), 404, 'route_not_found', { message: 'Cannot GET /api/v1/no-such-thing' });
    expectError(await send('DELETE', `/api/v1/plans/${ids.plan}`), 404, 'route_not_found');
  });

  it('404 test_clock_disabled when the daemon runs without the test clock', () => {
    const controller = new TestClockController(testConfig(), new SystemClock());
    let thrown: unknown;
    try {
      controller.get();
    } catch (e) {
      thrown = e;
    }
    expect((thrown as { getResponse(): unknown }).getResponse()).toMatchObject({ statusCode: 404, code: 'test_clock_disabled' });
  });

  it('409 state_conflict, idempotency_key_reused', async () => {
    expectError(await post(`/api/v1/subscriptions/${ids.subscription}/resume`, {}), 409, 'state_conflict', { error: 'Conflict' });
    expectError(await post('/api/v1/test-clock', { now: '2000-01-01T00:00:00.000Z' }), 409, 'state_conflict');
    await post('/api/v1/plans', PLAN, { 'idempotency-key': 'codes-1' });
    expectError(await post('/api/v1/plans', { ...PLAN, name: 'Other' }, { 'idempotency-key': 'codes-1' }), 409, 'idempotency_key_reused');
  });

  it('413 payload_too_large, 415 unsupported_media_type and unsupported_encoding', async () => {
    expectError(await post('/api/v1/plans', { name: 'x'.repeat(1024 * 1024 + 10) }), 413, 'payload_too_large');
    expectError(await send('POST', '/api/v1/plans', { body: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    expectError(await send('POST', '/api/v1/plans', { body: '{}', headers: { 'content-type': 'application/json; charset=latin1' } }), 415, 'unsupported_media_type');
    expectError(await send('POST', '/api/v1/plans', { body: gzipSync('{}'), headers: { 'content-encoding': 'gzip' } }), 415, 'unsupported_encoding');
  });

  it('422 business_rule, and provider_refused with the provider code', async () => {
    expectError(await post('/api/v1/subscriptions', { customerId: ids.customer, planId: ids.archived }), 422, 'business_rule', { error: 'Unprocessable Entity' });
    expectError(await post('/api/v1/customers', { shopId: 'no-such-shop' }), 422, 'provider_refused', { providerCode: 'invalidShopID' });
    expectError(await post(`/api/v1/customers/${ids.customer}/bindings`, { paymentToolToken: 'not-a-real-token', paymentSession: 'not-a-session' }), 422, 'provider_refused');
  });
});
