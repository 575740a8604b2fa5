import { Agent, request } from 'undici';
import { DataSource } from 'typeorm';
import { RateLimitBucketsRepository } from '../../src/rate-limits/rate-limit-buckets.repository';
import { parseRateLimit } from '../../src/rate-limits/rate-limit';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

/** Well under what the replicas can serve on a busy two-core machine, so most of the flood is over the limit. */
const LIMIT = '20/s';
const SENT = 3000;
const CONCURRENCY = 48;

describe('Rate limit shared by three replicas', () => {
  let sandbox: SandboxHandle;
  const replicas: TestApp[] = [];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ shopId: SANDBOX_SHOP_ID });
    for (let i = 0; i < 3; i++) replicas.push(await startTestApp({ sandbox, listen: true, env: { API_RATE_LIMIT: LIMIT } }));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await sandbox?.close();
  });

  it('holds one key to its limit however its requests are spread', async () => {
    const made = await replicas[0].api().post('/api/v1/api-keys').send({ name: 'flood', scopes: ['events:read'] }).expect(201);
    const dispatcher = new Agent({ connections: CONCURRENCY });
    const statuses: Record<number, number> = {};
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SENT) {
          const replica = replicas[next++ % 3];
          const res = await request(`${replica.url as string}/api/v1/events?limit=1`, { dispatcher, headers: { authorization: `Bearer ${made.body.key as string}` } });
          await res.body.dump();
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      }),
    );
    const elapsedS = (Date.now() - started) / 1000;
    await dispatcher.close();
    const { perSecond, burst } = parseRateLimit(LIMIT);
    const admitted = statuses[200] ?? 0;
    // Exact by construction: never more than the burst plus what refilled meanwhile, never fewer than the burst.
    expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
    expect(admitted).toBeGreaterThanOrEqual(burst);
    expect(admitted).toBeLessThanOrEqual(burst + Math.ceil(perSecond * elapsedS));
    console.log(
      `rate limit across 3 replicas: ${SENT} requests in ${elapsedS.toFixed(2)} s (${Math.round(SENT / elapsedS)}/s), ${admitted} admitted, ` +
        `at most ${burst + Math.round(perSecond * elapsedS)} allowed (burst ${burst} + ${perSecond}/s × elapsed): ${((admitted / (burst + perSecond * elapsedS)) * 100).toFixed(1)} %`,
    );
  });

  it('costs one statement per request (measured for the note)', async () => {
    const buckets = replicas[0].app.get(RateLimitBucketsRepository);
    const limit = parseRateLimit('1000000/s');
    const rounds = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await buckets.take('credential:cost', limit, new Date());
    const sequentialMs = Number(process.hrtime.bigint() - started) / 1e6 / rounds;
    // The floor of any statement: a round trip that does nothing, over the same pool.
    const dataSource = replicas[0].app.get(DataSource);
    const floorStarted = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await dataSource.query('SELECT 1');
    const floorMs = Number(process.hrtime.bigint() - floorStarted) / 1e6 / rounds;
    const parallelStarted = process.hrtime.bigint();
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = 0; i < rounds / 16; i++) await buckets.take('credential:cost', limit, new Date());
    }));
    const parallelMs = Number(process.hrtime.bigint() - parallelStarted) / 1e6;
    expect((await buckets.take('credential:cost', limit, new Date())).allowed).toBe(true);
    console.log(`rate limit cost: ${sequentialMs.toFixed(3)} ms per take one at a time (SELECT 1: ${floorMs.toFixed(3)} ms); ${rounds} takes of one row by 16 at once in ${parallelMs.toFixed(0)} ms (${Math.round(rounds / (parallelMs / 1000))}/s)`);
  });
});
