import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { WalletGateway } from '../../src/gateway/wallet.gateway';
import { ProviderWebhookRegistrationService } from '../../src/provider-webhooks/provider-webhook-registration.service';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxControl } from '../support/sandbox-control';
import { startTestSandbox } from '../support/sandbox-client';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

const SCHEDULING = { SCHEDULER_ENABLED: 'true' };

/** Waits until every webhook the app wants is registered, and answers them. */
async function registered(t: TestApp, count: number) {
  const registration = t.app.get(ProviderWebhookRegistrationService);
  return waitFor(
    () => registration.list(),
    (rows) => rows.length === count && rows.every((r) => r.status === 'active' && r.publicKey),
    { timeoutMs: 60_000 },
  );
}

/**
 * The daemon registers its webhooks at the provider once: it lists the provider's webhooks first and adopts a
 * matching one, so a restart, a second replica or a lost answer never registers one twice.
 */
describe('provider webhook registration', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox();
    control = new SandboxControl(sandbox.url);
  });

  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
    await sandbox?.close();
  });

  async function start(publicUrl: string | true): Promise<TestApp> {
    const t = await startTestApp({ sandbox, env: SCHEDULING, providerWebhooksAt: publicUrl });
    apps.push(t);
    return t;
  }

  it("registers the shop's invoice and customer webhooks once, however many replicas start and restart", async () => {
    const first = await start(true);
    const publicUrl = first.url as string;
    const rows = await registered(first, 2);
    expect(rows.map((r) => r.topic).sort()).toEqual(['CustomersTopic', 'InvoicesTopic']);
    expect(rows.every((r) => r.url === `${publicUrl}/webhooks/provider`)).toBe(true);

    // A second replica behind the same public URL, then a restart of the first.
    const second = await start(publicUrl);
    await registered(second, 2);
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const restarted = await start(publicUrl);
    await registered(restarted, 2);

    const atProvider = await restarted.app.get(ProcessingGateway).listWebhooks();
    expect(atProvider.map((w) => `${w.scope.topic} ${w.url}`).sort()).toEqual([`CustomersTopic ${publicUrl}/webhooks/provider`, `InvoicesTopic ${publicUrl}/webhooks/provider`]);
    // The key kept is the one the provider answered.
    expect(new Set((await registered(restarted, 2)).map((r) => r.publicKey))).toEqual(new Set(atProvider.map((w) => w.publicKey)));
  });

  it("registers the payout wallet's webhooks once payouts are set up", async () => {
    const t = apps[apps.length - 1];
    const setup = await t.api().post('/api/v1/payouts/setup').send({ identityName: 'Hooks Ltd', provider: 'test', class: 'company', walletName: 'W', currency: 'RUB' }).expect(201);
    const rows = await registered(t, 4);
    expect(rows.map((r) => r.topic).sort()).toEqual(['CustomersTopic', 'DestinationsTopic', 'InvoicesTopic', 'WithdrawalsTopic']);
    const wallet = await t.app.get(WalletGateway).listWalletWebhooks(setup.body.identityId as string);
    expect(wallet.map((w) => w.scope.topic).sort()).toEqual(['DestinationsTopic', 'WithdrawalsTopic']);
  });

  it('keeps trying while the provider is unavailable, and registers exactly once when it answers again', async () => {
    // The earlier tests' replicas still run their schedules: stop them first, or the reset's TRUNCATE and their
    // transactions lock the same tables in opposite orders (a deadlock seen in CI).
    for (const running of apps.splice(0)) await running.close();
    await resetDatabase();
    await control.reset();
    await control.addFault({ operation: 'listWebhooks', kind: 'unavailable', count: 6 });
    // Two replicas start at the same moment behind one public URL (it need not answer for registration).
    const [t, u] = await Promise.all([start('https://billing.example.test'), start('https://billing.example.test')]);
    await registered(t, 2);
    await registered(u, 2);
    const atProvider = await t.app.get(ProcessingGateway).listWebhooks();
    expect(atProvider.map((w) => w.url)).toEqual(['https://billing.example.test/webhooks/provider', 'https://billing.example.test/webhooks/provider']);
    expect((await control.faults()).every((f) => f.remaining === 0)).toBe(true);
  });
});
