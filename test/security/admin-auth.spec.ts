import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import type { Server } from 'node:net';
import { Client } from 'pg';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { listenOnLoopback, rawRequest } from '../support/raw-http';
import { registeredRoutes } from '../support/registered-routes';

/** A route added the way anyone would add one, with no thought about authentication. */
@Controller('api/v1/forgotten')
class ForgottenController {
  static calls = 0;

  @Get()
  list() {
    ForgottenController.calls++;
    return { secret: 'data' };
  }

  @Post()
  create(@Body() body: unknown) {
    ForgottenController.calls++;
    return body;
  }
}

@Module({ controllers: [ForgottenController] })
class ForgottenModule {}

/** The API description (the document and its browser view): public, and it holds no data. */
const API_DESCRIPTION = [
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/',
  'GET /docs/index.html',
  'GET /docs/swagger-ui-init.js',
  'GET /docs/docs/swagger-ui-init.js',
  'GET /docs/LICENSE',
];

/** The console's sign-in: proving the token, reading and ending only the caller's own session. */
const CONSOLE_SESSION = ['GET /console/session', 'POST /console/session', 'DELETE /console/session'];

/** Exactly these may answer without the token (the contract's allow-list, as far as it is built). */
/** A recovery link's page and its button: the signed token in the path is the credential. */
const RECOVERY_PAGE = ['GET /pay/:token', 'POST /pay/:token'];

const PUBLIC = new Set(['GET /health/live', 'GET /health/ready', 'GET /metrics', 'POST /webhooks/provider', ...API_DESCRIPTION, ...CONSOLE_SESSION, ...RECOVERY_PAGE]);

const SAMPLE_ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

/** The ways a path can be spelled that the router may still serve: case, slashes, encodings, dot segments. */
function spellings(path: string): string[] {
  const encodedLetter = path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const mixedCase = path
    .split('')
    .map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c))
    .join('');
  return [
    path,
    path.toUpperCase(),
    mixedCase,
    `${path}/`,
    `/${path}`,
    path.replace(/\/(?=[^/]*$)/, '//'),
    path.replace(/\//g, '//'),
    encodedLetter,
    path.replace(/\/(?=[^/]+$)/, '%2F'),
    path.replace(/\/(?=[^/]+$)/, '%2f'),
    `/x/..${path}`,
    path.replace(/^\/([^/]+)/, '/$1/.'),
    path.replace(/^\/([^/]+)/, '/$1/x/..'),
    `${path}?token=${TEST_ADMIN_TOKEN}`,
    `${path};`,
    `${path}%00`,
    `${path}%20`,
    `${path}.json`,
  ];
}

async function countRows(tables: string[]): Promise<Record<string, number>> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const t of tables) counts[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    return counts;
  } finally {
    await client.end();
  }
}

const TABLES = [
  'plans',
  'customers',
  'subscriptions',
  'charges',
  'payouts',
  'payout_destinations',
  'payout_batches',
  'idempotency_records',
  'test_clock',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'console_sessions',
  'api_keys',
];

describe('Admin API: deny by default', () => {
  let t: TestApp;
  let base: string;
  /** A live console session: its cookie must not open anything without X-Console, nor from another site. */
  let session: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' }, extraImports: [ForgottenModule] });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    const signIn = await rawRequest(base, { method: 'POST', path: '/console/session', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TEST_ADMIN_TOKEN }) });
    session = String(signIn.headers['set-cookie']).split(';')[0];
  });

  /**
   * Every way of asking without the right credentials: no token, a wrong one, and the console's cookie used wrongly.
   * The cookie's cases depend on the handler the router chose, not on how the path is spelled, so they are tried on
   * the first spellings only (keeping the walk within its time on a busy machine).
   */
  const wrongCredentials = (spelling: number): Record<string, string>[] => [
    {},
    { authorization: 'Bearer wrong-token' },
    { authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}` },
    { authorization: 'Bearer' },
    ...(spelling < 3
      ? [
          { cookie: session },
          { cookie: session, 'x-console': '1', 'sec-fetch-site': 'cross-site' },
          { cookie: 'console_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'x-console': '1' },
        ]
      : []),
  ];
  afterAll(() => t?.close());

  it('allows exactly the allow-list without a token', () => {
    const routes = registeredRoutes(t.app);
    expect(routes.length).toBeGreaterThan(30);
    // Each public route must be public on purpose: anything else found open fails the walk below.
    for (const key of PUBLIC) expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(key);
  });

  it('refuses every other registered route, under every spelling, with 401 or 404 and no effect', async () => {
    const before = await countRows(TABLES);
    const seen: Record<number, number> = {};
    let walked = 0;
    for (const route of registeredRoutes(t.app)) {
      const key = `${route.method} ${route.path}`;
      if (PUBLIC.has(key)) continue;
      walked++;
      const concrete = route.path.replace(/:[A-Za-z]+/g, SAMPLE_ID);
      for (const [i, path] of spellings(concrete).entries()) {
        for (const credentials of wrongCredentials(i)) {
          const headers: Record<string, string> = { 'content-type': 'application/json', ...credentials };
          const authorization = JSON.stringify(credentials);
          // GET and DELETE carry no body (Node sends a DELETE body unframed, which is not HTTP at all).
          const res = await rawRequest(base, { method: route.method, path, headers, body: ['GET', 'DELETE'].includes(route.method) ? undefined : '{}' });
          seen[res.status] = (seen[res.status] ?? 0) + 1;
          if (i === 0) expect({ key, path, authorization, status: res.status }).toEqual({ key, path, authorization, status: 401 });
          else expect({ key, path, authorization, status: [401, 404].includes(res.status) }).toEqual({ key, path, authorization, status: true });
        }
      }
    }
    expect(walked).toBeGreaterThan(30);
    expect(ForgottenController.calls).toBe(0);
    expect(await countRows(TABLES)).toEqual(before);
    // The figures for the note: how many routes were walked and what they answered.
    console.log(`admin auth walk: ${walked} routes, answers by status ${JSON.stringify(seen)}`);
  });

  it('protects a route added without any thought about authentication', async () => {
    for (const path of ['/api/v1/forgotten', '/API/V1/FORGOTTEN', '/api/v1/forgotten/', '//api//v1//forgotten']) {
      expect({ path, status: (await rawRequest(base, { method: 'GET', path })).status }).toEqual({ path, status: path.startsWith('//') ? 404 : 401 });
    }
    const withToken = await rawRequest(base, { method: 'GET', path: '/api/v1/forgotten', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(ForgottenController.calls).toBe(1);
  });

  it('serves the API description without a token, with no data and no secret in it', async () => {
    const document = await rawRequest(base, { method: 'GET', path: '/openapi.json' });
    expect(document.status).toBe(200);
    expect(document.json).toMatchObject({ openapi: expect.stringMatching(/^3\./), paths: expect.objectContaining({ '/api/v1/plans': expect.anything() }) });
    expect(document.text).not.toContain(TEST_ADMIN_TOKEN);
    for (const path of ['/docs', '/docs/', '/docs/index.html', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js']) {
      const res = await rawRequest(base, { method: 'GET', path });
      expect({ path, status: res.status, secret: res.text.includes(TEST_ADMIN_TOKEN) }).toEqual({ path, status: 200, secret: false });
    }
    expect((await rawRequest(base, { method: 'GET', path: '/docs/LICENSE' })).status).toBe(404);
    // Only reading is public: any other method on these paths is a route nobody serves.
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await rawRequest(base, { method, path: '/openapi.json', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
    }
  });

  it('lets the console sign in only with the token, and its public routes change nothing else', async () => {
    const before = await countRows(TABLES);
    const json = { 'content-type': 'application/json' };
    for (const body of ['{}', JSON.stringify({ token: 'wrong-token-0123456789abcdef' }), JSON.stringify({ token: TEST_ADMIN_TOKEN.toUpperCase() })]) {
      const res = await rawRequest(base, { method: 'POST', path: '/console/session', headers: json, body });
      expect({ body, status: res.status, cookie: res.headers['set-cookie'] }).toEqual({ body, status: body === '{}' ? 400 : 401, cookie: undefined });
    }
    expect((await rawRequest(base, { method: 'GET', path: '/console/session' })).json).toEqual({ signedIn: false, expiresAt: null, testClock: null, scopes: null, taxRates: null });
    expect((await rawRequest(base, { method: 'DELETE', path: '/console/session' })).status).toBe(200);
    expect(await countRows(TABLES)).toEqual(before);
    // The console's files hold no data and no secret; its session cookie with X-Console opens the API.
    const page = await rawRequest(base, { method: 'GET', path: '/console' });
    expect(page.text).not.toContain(TEST_ADMIN_TOKEN);
    const withSession = await rawRequest(base, { method: 'GET', path: '/api/v1/plans', headers: { cookie: session, 'x-console': '1' } });
    expect(withSession.status).toBe(200);
  });

  it('still serves the public routes and the API with the right token', async () => {
    expect((await rawRequest(base, { method: 'GET', path: '/health/live' })).status).toBe(200);
    expect((await rawRequest(base, { method: 'GET', path: '/metrics' })).status).toBe(200);
    const res = await rawRequest(base, { method: 'GET', path: '/API/v1/plans/', headers: { authorization: `bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
  });
});
