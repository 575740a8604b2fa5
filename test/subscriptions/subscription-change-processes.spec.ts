import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { createReadyCustomers, Engine, setClock, startEngine } from '../billing/support/billing-fixtures';
import { DaemonAdmin } from '../billing/support/daemon-admin';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { waitFor, waitForStatus } from '../support/wait';

/**
 * The same change sent at once to three daemon processes (each with its scheduler on) on one database and one
 * sandbox: one of them makes the change and its proration charge, the others refuse, and the provider captures the
 * proration once.
 */
describe('one change on three daemon processes at once', () => {
  let sandbox: SandboxClient;
  let setup: Engine;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-changes-'));

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(testDatabaseUrl(), sandbox.url);
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await setup?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'makes one change and one charge',
    async () => {
      await setClock(setup, '2027-01-01T00:00:00.000Z');
      const plan = async (name: string, price: number) =>
        (await setup.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).body.id as string;
      const basic = await plan('Basic', 3100);
      const pro = await plan('Pro', 6200);
      const [customerId] = await createReadyCustomers(setup, sandbox, 1);
      const sub = (await setup.api().post('/api/v1/subscriptions').send({ customerId, planId: basic })).body.id as string;
      await setup.runPass();
      await setClock(setup, '2027-01-16T10:00:00.000Z');

      for (const name of ['a', 'b', 'c']) daemons.push(await startDaemon(schedulingDaemonEnv(testDatabaseUrl(), sandbox.url, join(dataDir, name))));
      await Promise.all(daemons.map((d) => waitForStatus(`${d.baseUrl}/health/ready`, 200, 180_000)));
      const admins = daemons.map((d) => new DaemonAdmin(d));
      const answers = await Promise.all(admins.map((a) => a.call('POST', `/api/v1/subscriptions/${sub}/change`, { planId: pro })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);

      const captured = async () =>
        (await sandbox.control.ledger()).payments.filter((p) => p.status === 'captured' && p.invoiceMetadata.subscriptionId === sub).map((p) => p.amount);
      await waitFor(captured, (amounts) => amounts.length >= 2, { timeoutMs: 120_000, everyMs: 200, what: 'the proration captured' });
      // The provider captured it; the daemon settles the charge a moment later (a busy machine can make that moment long).
      const prorations = async () =>
        ((await admins[2].expect('GET', `/api/v1/subscriptions/${sub}/charges`, 200)).items as { kind: string; amount: number; status: string }[]).filter((c) => c.kind === 'proration');
      const settled = await waitFor(prorations, (list) => list.every((c) => c.status !== 'processing' && c.status !== 'pending'), { timeoutMs: 60_000, everyMs: 200, what: 'the proration settled' });
      expect(settled).toEqual([expect.objectContaining({ amount: 1600, status: 'succeeded' })]);
      expect(await captured()).toEqual([3100, 1600]);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
