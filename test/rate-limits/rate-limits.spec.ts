import type { Server } from 'node:net';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { listenOnLoopback, rawRequest } from '../support/raw-http';

async function countPlans(): Promise<number> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM plans')).rows[0].n);
  } finally {
    await client.end();
  }
}

const PLAN = JSON.stringify({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] });

describe('Rate limits: per credential, and failed authentication per address', () => {
  let t: TestApp;
  let base: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    await resetDatabase();
    // One a minute, a burst of two: the third request within the minute is over, however slow the machine.
    t = await startTestApp({
      env: { API_RATE_LIMIT: '1/m', AUTH_FAILURE_LIMIT: '1/m', LOG_LEVEL: 'warn' },
      logDestination: new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString()), done()) }),
    });
    // Without listen() Nest keeps service log lines buffered; the daemon flushes them when it starts listening.
    t.app.flushLogs();
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
  });
  afterAll(() => t?.close());

  const post = (token: string) => rawRequest(base, { method: 'POST', path: '/api/v1/plans', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: PLAN });

  it("answers 429 with Retry-After past a credential's limit, does nothing, and counts neither health nor metrics", async () => {
    // The root token's two requests: one plan, one key.
    expect((await post(TEST_ADMIN_TOKEN)).status).toBe(201);
    const key = await rawRequest(base, {
      method: 'POST',
      path: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'busy', scopes: ['plans:write'] }),
    });
    const secret = (key.json as { key: string }).key;
    const plansBefore = await countPlans();
    const answers = [await post(secret), await post(secret), await post(secret)];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429]);
    expect(answers[2].json).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(Number(answers[2].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await countPlans()).toBe(plansBefore + 2);
    // The public routes are outside any bucket; the root token has its own, emptied by its two requests above.
    for (const path of ['/health/live', '/health/ready', '/metrics']) expect({ path, status: (await rawRequest(base, { method: 'GET', path })).status }).toEqual({ path, status: 200 });
    expect((await post(TEST_ADMIN_TOKEN)).status).toBe(429);
    const metrics = (await rawRequest(base, { method: 'GET', path: '/metrics' })).text;
    expect(metrics).toMatch(/api_requests_total\{credential="[0-9a-f-]{36}",result="rate_limited"\} 1/);
    expect(metrics).toMatch(/api_requests_total\{credential="admin_token",result="admitted"\} 2/);
  });

  it('shuts out an address after too many failed sign-ins, right token or not, and counts and logs each', async () => {
    const signIn = (token: string) => rawRequest(base, { method: 'POST', path: '/console/session', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const wrongBearer = () => rawRequest(base, { method: 'GET', path: '/api/v1/plans', headers: { authorization: 'Bearer wrong-token-0123456789' } });
    expect((await signIn('wrong-token-0123456789')).status).toBe(401);
    expect((await wrongBearer()).status).toBe(401);
    const third = await wrongBearer();
    expect({ status: third.status, code: (third.json as { code: string }).code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Now even the right token gets nothing from this address (guessing learns nothing), and no session is opened.
    const right = await signIn(TEST_ADMIN_TOKEN);
    expect({ status: right.status, cookie: right.headers['set-cookie'] }).toEqual({ status: 429, cookie: undefined });
    const metrics = (await rawRequest(base, { method: 'GET', path: '/metrics' })).text;
    expect(metrics).toMatch(/auth_failures_total\{via="bearer",result="refused"\} 1/);
    expect(metrics).toMatch(/auth_failures_total\{via="console_sign_in",result="refused"\} 1/);
    expect(metrics).toMatch(/auth_failures_total\{via="bearer",result="rate_limited"\} 1/);
    expect(metrics).toMatch(/auth_failures_total\{via="console_sign_in",result="rate_limited"\} 1/);
    const failures = logLines.map((line) => JSON.parse(line) as { msg: string; clientAddress?: string }).filter((line) => line.msg.includes('failed authentication') || line.msg === 'Authentication failed');
    expect(failures.length).toBeGreaterThanOrEqual(3);
    for (const line of failures) expect(line.clientAddress).toMatch(/127\.0\.0\.1/);
    expect(logLines.join('\n')).not.toContain(TEST_ADMIN_TOKEN);
    expect(logLines.join('\n')).not.toContain('wrong-token-0123456789');
  });
});
