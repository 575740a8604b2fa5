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

/** Exactly these may answer without the token (the contract's allow-list, as far as it is built). */
const PUBLIC = new Set(['GET /health/live', 'GET /health/ready', 'GET /metrics', 'POST /webhooks/provider', ...API_DESCRIPTION]);

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
];

describe('Admin API: deny by default', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' }, extraImports: [ForgottenModule] });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
  });
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
        for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}`, `Bearer`]) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (authorization) headers.authorization = authorization;
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

  it('still serves the public routes and the API with the right token', async () => {
    expect((await rawRequest(base, { method: 'GET', path: '/health/live' })).status).toBe(200);
    expect((await rawRequest(base, { method: 'GET', path: '/metrics' })).status).toBe(200);
    const res = await rawRequest(base, { method: 'GET', path: '/API/v1/plans/', headers: { authorization: `bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
  });
});
