import type { Server } from 'node:net';
import { runMigrations } from '../../src/database/run-migrations';
import { listenOnLoopback, rawRequest, RawResponse } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startThrowawayPostgres, ThrowawayPostgres } from '../support/throwaway-postgres';
import { waitFor } from '../support/wait';

/**
 * A database outage with the test clock on (which reads the database): liveness never depends on the database,
 * readiness says 503 (never 500) and says why, admin requests get 503, and all is well again soon after the
 * database returns. Runs on a cluster of its own, stopped and started by the test.
 */
describe('health during a database outage', () => {
  let pg: ThrowawayPostgres;
  let t: TestApp;
  let base: string;

  const get = async (path: string, admin = false): Promise<RawResponse & { ms: number }> => {
    const started = Date.now();
    const res = await rawRequest(base, { method: 'GET', path, headers: admin ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {} });
    return { ...res, ms: Date.now() - started };
  };

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    await runMigrations(pg.url);
    t = await startTestApp({ env: { TEST_CLOCK: 'true' }, databaseUrl: pg.url });
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
    expect((await get('/api/v1/test-clock', true)).status).toBe(200);
  });

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    pg?.destroy();
  });

  it('answers live 200, ready 503 with details and admin 503 while the database is down, and recovers within 30 s', async () => {
    expect((await get('/health/ready')).status).toBe(200);
    pg.stop();
    for (let i = 0; i < 5; i++) {
      // Answered in seconds (readiness gives up on the database after 2 s), not after a connection timeout: the
      // bounds leave room for a busy machine.
      const live = await get('/health/live');
      expect({ status: live.status, fast: live.ms < 5_000 }).toEqual({ status: 200, fast: true });
      const ready = await get('/health/ready');
      expect({ status: ready.status, fast: ready.ms < 10_000 }).toEqual({ status: 503, fast: true });
      expect(ready.json).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
      expect((await get('/metrics')).status).toBe(200);
      const admin = await get('/api/v1/plans', true);
      expect(admin.status).toBe(503);
      expect(admin.json).toMatchObject({ statusCode: 503, message: expect.stringContaining('database'), code: 'database_unavailable' });
    }

    pg.start();
    const restarted = Date.now();
    await waitFor(async () => ((await get('/health/ready')).status === 200 ? true : undefined), (value) => value !== undefined, { timeoutMs: 30_000, everyMs: 250, what: 'ready after the restart' });
    console.log(`database outage: ready again ${Date.now() - restarted} ms after the database restarted`);
    const run = await rawRequest(base, { method: 'POST', path: '/api/v1/billing/run', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(run.status).toBe(200);
  });
});
