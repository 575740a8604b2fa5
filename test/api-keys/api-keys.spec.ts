import type { Server } from 'node:net';
import { Client } from 'pg';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { listenOnLoopback, rawRequest } from '../support/raw-http';
import { waitFor } from '../support/wait';

const KEY = /^bk_[A-Za-z0-9_-]{43}$/;

async function dump(sql: string): Promise<string> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return JSON.stringify((await client.query(sql)).rows);
  } finally {
    await client.end();
  }
}

describe('API keys', () => {
  let t: TestApp;
  let base: string;

  const call = (method: string, path: string, token: string, body?: unknown, extra: Record<string, string> = {}) =>
    rawRequest(base, {
      method,
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function makeKey(body: Record<string, unknown>): Promise<{ id: string; key: string }> {
    const res = await t.api().post('/api/v1/api-keys').send(body).expect(201);
    return res.body as { id: string; key: string };
  }

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp();
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
  });
  afterAll(() => t?.close());

  it('shows a new key once and keeps only its hash', async () => {
    const res = await t.api().post('/api/v1/api-keys').set('Idempotency-Key', 'make-storefront-key').send({ name: 'storefront', scopes: ['customers:write', 'subscriptions:write'] }).expect(201);
    expect(res.body).toMatchObject({ name: 'storefront', scopes: ['customers:write', 'subscriptions:write'], expiresAt: null, lastUsedAt: null, revokedAt: null, createdBy: { type: 'admin_token' } });
    expect(res.body.key).toMatch(KEY);
    const secret = res.body.key as string;
    // Read back, listed, or the same request replayed: never the key again, and nowhere in the database.
    expect((await t.api().get(`/api/v1/api-keys/${res.body.id}`).expect(200)).body).not.toHaveProperty('key');
    const listed = (await t.api().get('/api/v1/api-keys').expect(200)).body.items as { id: string }[];
    expect(listed.map((k) => k.id)).toContain(res.body.id);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const replay = await t.api().post('/api/v1/api-keys').set('Idempotency-Key', 'make-storefront-key').send({ name: 'storefront', scopes: ['customers:write', 'subscriptions:write'] }).expect(201);
    expect(replay.body).toMatchObject({ id: res.body.id, key: null });
    expect(await dump('SELECT * FROM api_keys')).not.toContain(secret.slice(3));
    expect(await dump('SELECT * FROM idempotency_records')).not.toContain(secret.slice(3));
    // The key works, with its scopes only.
    expect((await call('GET', '/api/v1/customers', secret)).status).toBe(200);
    expect((await call('GET', '/api/v1/plans', secret)).json).toMatchObject({ code: 'insufficient_scope', scope: 'plans:read' });
  });

  it('refuses bad input naming the field, and makes nothing', async () => {
    const before = await dump('SELECT count(*) FROM api_keys');
    for (const [body, field] of [
      [{ scopes: ['plans:read'] }, 'name'],
      [{ name: '', scopes: ['plans:read'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['plans:delete'] }, 'scopes'],
      [{ name: 'x', scopes: 'admin' }, 'scopes'],
      [{ name: 'x', scopes: ['plans:read', 'plans:read'] }, 'scopes'],
      [{ name: 'x', scopes: ['plans:read'], expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'x', scopes: ['plans:read'], expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'x', scopes: ['plans:read'], key: 'bk_mine' }, 'key'],
    ] as const) {
      const res = await call('POST', '/api/v1/api-keys', TEST_ADMIN_TOKEN, body);
      expect({ body, status: res.status, field: (res.json as { field?: string }).field }).toEqual({ body, status: 400, field });
    }
    expect(await dump('SELECT count(*) FROM api_keys')).toEqual(before);
  });

  it('lets only admin make keys, never with a scope the maker lacks', async () => {
    const writer = await makeKey({ name: 'writer', scopes: ['plans:write'] });
    const refused = await call('POST', '/api/v1/api-keys', writer.key, { name: 'reader', scopes: ['plans:read'] });
    expect({ status: refused.status, json: refused.json }).toMatchObject({ status: 403, json: { code: 'insufficient_scope', scope: 'admin' } });
    const admin = await makeKey({ name: 'ops', scopes: ['admin'] });
    const made = await call('POST', '/api/v1/api-keys', admin.key, { name: 'made by ops', scopes: ['payouts:write'] });
    expect(made.json).toMatchObject({ scopes: ['payouts:write'], createdBy: { type: 'api_key', id: admin.id, name: 'ops' } });
  });

  it('refuses a revoked or expired key, and notes when a key was used', async () => {
    const key = await makeKey({ name: 'short-lived', scopes: ['events:read'], expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await call('GET', '/api/v1/events', key.key)).status).toBe(200);
    // Noted without holding up the request: read until it shows.
    const used = await waitFor(() => t.api().get(`/api/v1/api-keys/${key.id}`), (res) => res.body.lastUsedAt !== null, { what: 'lastUsedAt noted' });
    expect(Date.parse(used.body.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(used.body.createdAt));
    await waitFor(() => call('GET', '/api/v1/events', key.key), (res) => res.status === 401, { what: 'the key expired' });

    const revoked = await makeKey({ name: 'to revoke', scopes: ['events:read'] });
    expect((await call('GET', '/api/v1/events', revoked.key)).status).toBe(200);
    const first = await t.api().delete(`/api/v1/api-keys/${revoked.id}`).expect(200);
    expect(first.body.revokedAt).not.toBeNull();
    // Refused at once by the replica that revoked it.
    expect((await call('GET', '/api/v1/events', revoked.key)).status).toBe(401);
    expect((await t.api().delete(`/api/v1/api-keys/${revoked.id}`).expect(200)).body.revokedAt).toBe(first.body.revokedAt);
    await t.api().delete('/api/v1/api-keys/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e').expect(404);
  });

  it('signs the console in with a key: its scopes, until the key is revoked', async () => {
    const key = await makeKey({ name: 'support desk', scopes: ['customers:read'] });
    const signIn = await rawRequest(base, { method: 'POST', path: '/console/session', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: key.key }) });
    expect(signIn.status).toBe(201);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0];
    const consoleCall = (path: string) => rawRequest(base, { method: 'GET', path, headers: { cookie, 'x-console': '1' } });
    expect((await consoleCall('/console/session')).json).toMatchObject({ signedIn: true, scopes: ['customers:read'] });
    expect((await consoleCall('/api/v1/customers')).status).toBe(200);
    expect((await consoleCall('/api/v1/plans')).json).toMatchObject({ code: 'insufficient_scope', scope: 'plans:read' });
    await t.api().delete(`/api/v1/api-keys/${key.id}`).expect(200);
    expect((await consoleCall('/api/v1/customers')).status).toBe(401);
    expect((await consoleCall('/console/session')).json).toMatchObject({ signedIn: false, scopes: null });
    const again = await rawRequest(base, { method: 'POST', path: '/console/session', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: key.key }) });
    expect(again.status).toBe(401);
  });
});
