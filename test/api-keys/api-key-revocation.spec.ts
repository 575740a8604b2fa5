import { API_KEY_CACHE_MS } from '../../src/api-keys/api-keys.service';
import { startTestSandbox } from '../support/sandbox-client';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';

describe('API keys: revocation on three replicas', () => {
  let sandbox: SandboxHandle;
  const replicas: TestApp[] = [];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ shopId: SANDBOX_SHOP_ID });
    for (let i = 0; i < 3; i++) replicas.push(await startTestApp({ sandbox }));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await sandbox?.close();
  });

  it('refuses a revoked key on every replica within the cache time', async () => {
    const made = await replicas[0].api().post('/api/v1/api-keys').send({ name: 'leaked', scopes: ['plans:read'] }).expect(201);
    const use = (replica: TestApp) => replica.api().get('/api/v1/plans').set('Authorization', `Bearer ${made.body.key as string}`);
    // Every replica has just read the key, so each remembers it as live.
    for (const replica of replicas) expect((await use(replica)).status).toBe(200);

    await replicas[0].api().delete(`/api/v1/api-keys/${made.body.id as string}`).expect(200);
    const revokedAt = Date.now();
    // How long each replica still let it in (for the note), then the rule itself: once the cache time has passed,
    // no replica lets it in.
    const delays = await Promise.all(
      replicas.map(async (replica) => {
        await waitFor(() => use(replica), (res) => res.status === 401, { what: 'the key refused', everyMs: 5 });
        return Date.now() - revokedAt;
      }),
    );
    await waitFor(async () => Date.now() - revokedAt, (elapsed) => elapsed > API_KEY_CACHE_MS, { what: 'the cache time passed' });
    for (const replica of replicas) expect((await use(replica)).status).toBe(401);
    console.log(`revocation: refused after ${delays.join(', ')} ms on the three replicas (cache ${API_KEY_CACHE_MS} ms)`);
  });
});
