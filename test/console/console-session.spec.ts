import { Client } from 'pg';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';

const CONSOLE = { 'X-Console': '1' };

/** Signs in; answers the session cookie (`console_session=…`) and the whole Set-Cookie line. */
async function signIn(t: TestApp, headers: Record<string, string> = {}): Promise<{ cookie: string; setCookie: string; expiresAt: string }> {
  const res = await request(t.app.getHttpServer()).post('/console/session').set(headers).send({ token: TEST_ADMIN_TOKEN }).expect(201);
  const setCookie = String(res.headers['set-cookie']?.[0] ?? '');
  return { cookie: setCookie.split(';')[0], setCookie, expiresAt: res.body.expiresAt as string };
}

async function sessionRows(): Promise<string> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<{ row: string }>('SELECT row_to_json(s)::text AS row FROM console_sessions s')).rows.map((r) => r.row).join('\n');
  } finally {
    await client.end();
  }
}

describe('console sessions: the admin token traded for a cookie the admin API takes only from the console', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
  });
  afterAll(() => t?.close());

  it('signs in with the admin token: an HttpOnly, SameSite=Strict cookie valid 12 hours, Secure behind https', async () => {
    const before = Date.now();
    const { cookie, setCookie, expiresAt } = await signIn(t);
    expect(cookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}$/);
    expect(setCookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict']);
    expect(Date.parse(expiresAt) - before).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(Date.parse(expiresAt) - before).toBeLessThan(12 * 3600_000 + 60_000);
    const behindProxy = await signIn(t, { 'X-Forwarded-Proto': 'https' });
    expect(behindProxy.setCookie.split('; ')).toContain('Secure');
  });

  it('refuses a wrong token or a sign-in from another site, and sets no cookie', async () => {
    for (const [headers, token] of [
      [{}, 'wrong-token-0123456789abcdef'],
      [{ 'Sec-Fetch-Site': 'cross-site' }, TEST_ADMIN_TOKEN],
      [{ Origin: 'https://evil.example' }, TEST_ADMIN_TOKEN],
    ] as const) {
      const res = await http().post('/console/session').set(headers).send({ token }).expect(401);
      expect({ code: res.body.code, cookie: res.headers['set-cookie'] }).toEqual({ code: 'unauthorized', cookie: undefined });
    }
    const missing = await http().post('/console/session').send({}).expect(400);
    expect(missing.body).toMatchObject({ code: 'validation_failed', field: 'token' });
  });

  it('opens the admin API to the cookie only together with X-Console: 1, and only from the same origin', async () => {
    const { cookie } = await signIn(t);
    const cases: [Record<string, string>, number][] = [
      [{ Cookie: cookie }, 401],
      [{ Cookie: cookie, 'X-Console': 'true' }, 401],
      [{ Cookie: cookie, ...CONSOLE, 'Sec-Fetch-Site': 'cross-site' }, 401],
      [{ Cookie: cookie, ...CONSOLE, 'Sec-Fetch-Site': 'same-site' }, 401],
      [{ Cookie: cookie, ...CONSOLE, Origin: 'https://evil.example' }, 401],
      [{ Cookie: cookie, ...CONSOLE, Authorization: 'Bearer wrong-token-0123456789' }, 401],
      [{ Cookie: 'console_session=not-a-session', ...CONSOLE }, 401],
      [{ Cookie: cookie, ...CONSOLE }, 200],
      [{ Cookie: `theme=dark; ${cookie}`, ...CONSOLE, 'Sec-Fetch-Site': 'same-origin', Host: 'billing.example:8443', Origin: 'https://billing.example:8443' }, 200],
    ];
    for (const [headers, status] of cases) {
      const res = await http().get('/api/v1/plans').set(headers);
      expect({ headers, status: res.status }).toEqual({ headers, status });
    }
    // A write too, and it is idempotent like any other.
    const body = { name: 'Console plan', product: 'Console', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] };
    const first = await http().post('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE, 'Idempotency-Key': 'console-plan-1' }).send(body).expect(201);
    const again = await http().post('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE, 'Idempotency-Key': 'console-plan-1' }).send(body).expect(201);
    expect(again.body.id).toBe(first.body.id);
  });

  it("tells the console its own state, and whether the test clock is on, without failing a call", async () => {
    expect((await http().get('/console/session').expect(200)).body).toEqual({ signedIn: false, expiresAt: null, testClock: null, scopes: null, taxRates: null });
    const { cookie, expiresAt } = await signIn(t);
    const state = await http().get('/console/session').set('Cookie', cookie).expect(200);
    expect(state.body).toEqual({ signedIn: true, expiresAt, testClock: true, scopes: ['admin'], taxRates: ['0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122'] });
    expect(state.headers['cache-control']).toBe('no-store');
  });

  it('signs out: the session ends at once and the cookie is cleared', async () => {
    const { cookie } = await signIn(t);
    await http().get('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE }).expect(200);
    const out = await http().delete('/console/session').set('Cookie', cookie).expect(200);
    expect(out.body).toEqual({ signedOut: true });
    expect(String(out.headers['set-cookie']?.[0])).toMatch(/^console_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict$/);
    await http().get('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE }).expect(401);
    // Signing out without a session changes nothing and still answers.
    await http().delete('/console/session').expect(200);
  });

  it('stores neither the token nor a usable session id, and an expired session is refused', async () => {
    const { cookie } = await signIn(t);
    const id = cookie.split('=')[1];
    const rows = await sessionRows();
    expect(rows).toMatch(/"key_hash":"[0-9a-f]{64}"/);
    expect(rows).not.toContain(id);
    expect(rows).not.toContain(TEST_ADMIN_TOKEN);
    const client = new Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    await client.query(`UPDATE console_sessions SET expires_at = now() - interval '1 second'`);
    await client.end();
    await http().get('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE }).expect(401);
  });

  it('ends every session when the daemon starts with another admin token', async () => {
    const { cookie } = await signIn(t);
    const other = await startTestApp({ env: { ADMIN_TOKEN: 'another-admin-token-0123456789' }, sandbox: t.sandbox });
    try {
      await request(other.app.getHttpServer()).get('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE }).expect(401);
      await http().get('/api/v1/plans').set({ Cookie: cookie, ...CONSOLE }).expect(200);
    } finally {
      await other.close();
    }
  });
});
