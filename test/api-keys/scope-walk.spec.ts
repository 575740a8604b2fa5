import { Controller, Get, Module } from '@nestjs/common';
import type { Server } from 'node:net';
import { Client } from 'pg';
import { buildApiDocument } from '../../src/common/api-docs/api-description';
import { SCOPES, Scope, scopesGrant } from '../../src/common/auth/scopes';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { listenOnLoopback, rawRequest, RawResponse } from '../support/raw-http';
import { registeredRoutes, Route } from '../support/registered-routes';

/** A route added with no thought about scopes: only `admin` may call it. */
@Controller('api/v1/undeclared')
class UndeclaredController {
  static calls = 0;

  @Get()
  read() {
    UndeclaredController.calls++;
    return { secret: 'data' };
  }
}

@Module({ controllers: [UndeclaredController] })
class UndeclaredModule {}

/** Routes outside the guard (or public by design): see test/security/admin-auth.spec.ts. */
const PUBLIC = /^(GET|POST|DELETE) \/(health\/|metrics|webhooks\/provider|openapi\.json|docs|console\/session|pay\/)/;

const SAMPLE_ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

const TABLES = ['plans', 'customers', 'subscriptions', 'charges', 'refunds', 'payouts', 'payout_batches', 'payout_destinations', 'events', 'webhook_endpoints', 'api_keys', 'test_clock', 'plan_migrations', 'idempotency_records'];

async function countRows(): Promise<Record<string, number>> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const t of TABLES) counts[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    return counts;
  } finally {
    await client.end();
  }
}

const key = (route: Route) => `${route.method} ${route.path}`;

describe('API keys: every route declares its scope and holds to it', () => {
  let t: TestApp;
  let base: string;
  /** The scope each operation of the API description declares, by `METHOD /path/:param`. */
  let declared: Map<string, Scope>;
  const keys = new Map<string, string>();

  /** A key holding exactly `scopes` (made once per set). */
  async function keyWith(scopes: Scope[]): Promise<string> {
    const name = scopes.join(' ');
    if (!keys.has(name)) {
      const res = await t.api().post('/api/v1/api-keys').send({ name: `walk ${keys.size}`, scopes }).expect(201);
      keys.set(name, res.body.key as string);
    }
    return keys.get(name) as string;
  }

  /** Every scope that does not grant `needed`: the most a key can hold and still be refused. */
  const allBut = (needed: Scope) => SCOPES.filter((s) => !scopesGrant([s], needed));

  function send(route: Route, token: string): Promise<RawResponse> {
    const path = route.path.replace(/:[A-Za-z]+/g, SAMPLE_ID);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    return rawRequest(base, { method: route.method, path, headers, body: ['GET', 'DELETE'].includes(route.method) ? undefined : '{}' });
  }

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' }, extraImports: [UndeclaredModule] });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    declared = new Map();
    for (const [path, item] of Object.entries(buildApiDocument(t.app).paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, { 'x-scope'?: Scope }>)) {
        if (operation['x-scope']) declared.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation['x-scope']);
      }
    }
  });
  afterAll(() => t?.close());

  const guarded = () => registeredRoutes(t.app).filter((r) => !PUBLIC.test(key(r)) && !r.path.startsWith('/console') && r.path !== '/api/v1/undeclared');

  it('finds a declared scope on every route of the admin API', () => {
    const routes = guarded();
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !declared.has(key(r))).map(key);
    expect(missing).toEqual([]);
    // The walk would see a route added without a declaration: this one has none.
    expect(declared.has('GET /api/v1/undeclared')).toBe(false);
  });

  it('refuses a route that declares nothing to every key but admin', async () => {
    const route = { method: 'GET', path: '/api/v1/undeclared' };
    const everyOther = await keyWith(SCOPES.filter((s) => s !== 'admin'));
    const refused = await send(route, everyOther);
    expect({ status: refused.status, body: refused.json }).toMatchObject({ status: 403, body: { code: 'insufficient_scope', scope: 'admin' } });
    expect(UndeclaredController.calls).toBe(0);
    expect((await send(route, await keyWith(['admin']))).status).toBe(200);
    expect(UndeclaredController.calls).toBe(1);
  });

  it('answers 403 insufficient_scope to a key without the scope (changing nothing), and the root answer to a key with it', async () => {
    for (const needed of new Set(declared.values())) {
      await keyWith(allBut(needed));
      await keyWith([needed]);
    }
    const before = await countRows();
    const seen: Record<string, number> = {};
    for (const route of guarded()) {
      const needed = declared.get(key(route)) as Scope;
      const refused = await send(route, await keyWith(allBut(needed)));
      expect({ route: key(route), status: refused.status, body: refused.json }).toMatchObject({ route: key(route), status: 403, body: { code: 'insufficient_scope', scope: needed } });
      seen[needed] = (seen[needed] ?? 0) + 1;
    }
    expect(await countRows()).toEqual(before);

    for (const route of guarded()) {
      const needed = declared.get(key(route)) as Scope;
      const root = await send(route, TEST_ADMIN_TOKEN);
      const scoped = await send(route, await keyWith([needed]));
      // The sample id names nothing and the body is empty: the answers are refusals of the request itself (400, 404,
      // 409...), the same for both, so both credentials got past the guard to the same handler.
      expect({ route: key(route), status: scoped.status, code: (scoped.json as { code?: string })?.code }).toEqual({
        route: key(route),
        status: root.status,
        code: (root.json as { code?: string })?.code,
      });
      expect(scoped.status).not.toBe(403);
    }
    console.log(`scope walk: ${guarded().length} routes, by scope ${JSON.stringify(seen)}`);
  });
});
