import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { assertExactlyOnce, createPlan, createReadyCustomers, Engine, setClock, startEngine, subscribeAll } from '../billing/support/billing-fixtures';
import { monthlyPeriodStarts } from '../billing/support/exactly-once';
import { DaemonProcess, schedulingDaemonEnv, startDaemon } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { waitForStatus } from '../support/wait';
import { MerchantReceiver } from './support/merchant-receiver';
import { createEndpoint, until } from './support/webhook-fixtures';

const BEFORE = '2027-01-14T10:00:00.000Z';
const T0 = '2027-01-15T10:00:00.000Z';
const CUSTOMERS = 30;

/**
 * The outbox through a crash, with real processes: a daemon is SIGKILLed while charges settle and their events are
 * being delivered; a restarted daemon finishes the work. No event is missing (each paid charge and each started
 * period has its one event, every event reached the receiver) and no event id ever arrived with two bodies.
 */
describe('Merchant events survive a killed daemon', () => {
  let sandbox: SandboxClient;
  let setup: Engine;
  let receiver: MerchantReceiver;
  let db: Client;
  const daemons: DaemonProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'webhook-crash-'));

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    setup = await startEngine(testDatabaseUrl(), sandbox.url);
    receiver = await MerchantReceiver.start();
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    for (const d of daemons) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await db?.end();
    await setup?.close();
    await receiver?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const daemonEnv = (name: string) => schedulingDaemonEnv(testDatabaseUrl(), sandbox.url, join(dataDir, name));

  const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string }>(sql, params)).rows[0].n);

  it('SIGKILL while charges settle and deliveries are in flight: after a restart every event arrives, each id with one body', async () => {
    await setClock(setup, BEFORE);
    const endpoint = await createEndpoint(setup.api, { url: receiver.url });
    receiver.useSecret(endpoint.secret);
    const plan = await createPlan(setup);
    const customerIds = await createReadyCustomers(setup, sandbox, CUSTOMERS);
    const subscriptionIds = await subscribeAll(setup, customerIds, plan.id, T0);
    // Slow payments and a slow receiver, so that charges and deliveries are both in flight when the kill comes.
    await sandbox.control.addFault({ operation: 'createPayment', kind: 'latency', latencyMs: 300 });
    receiver.mode = { kind: 'slow', delayMs: 300 };

    const victim = await startDaemon(daemonEnv('a'));
    daemons.push(victim);
    await waitForStatus(`${victim.baseUrl}/health/ready`, 200, 180_000);
    const victimWorker = await until(
      async () => (await db.query<{ id: string }>('SELECT id FROM workers WHERE pid = $1', [victim.child.pid])).rows[0]?.id,
      60_000,
      'the victim registered',
    );

    await setClock(setup, T0);
    await until(
      async () => {
        const charges = await count(`SELECT count(*) AS n FROM charges WHERE lease_owner = $1 AND status <> 'succeeded'`, [victimWorker]);
        const deliveries = await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE lease_owner = $1`, [victimWorker]);
        return charges > 0 && deliveries > 0 ? true : undefined;
      },
      60_000,
      'the victim holds charges and deliveries in flight',
      20,
    );
    victim.child.kill('SIGKILL');
    await victim.exited;
    const heldDeliveries = await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE lease_owner = $1`, [victimWorker]);
    const receivedBeforeKill = receiver.deliveries.length;
    receiver.mode = { kind: 'ok' };

    const restarted = await startDaemon(daemonEnv('b'));
    daemons.push(restarted);
    await waitForStatus(`${restarted.baseUrl}/health/ready`, 200, 180_000);

    // Every charge paid, and every delivery of every event ended in a success.
    await until(
      async () => {
        const open = await count(`SELECT (SELECT count(*) FROM charges WHERE status <> 'succeeded') + (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded') AS n`);
        const charges = await count('SELECT count(*) AS n FROM charges');
        return open === 0 && charges === CUSTOMERS ? true : undefined;
      },
      180_000,
      'all charges paid and all events delivered',
      250,
    );

    await assertExactlyOnce(setup, sandbox, {
      subscriptions: subscriptionIds.map((id) => ({ id, periodStarts: monthlyPeriodStarts(T0, T0) })),
      amount: plan.amount,
      currency: plan.currency,
    });
    // No event missing: one charge.succeeded per paid charge, one subscription.updated per started period.
    const { rows: events } = await db.query<{ id: string; type: string; object_id: string }>(`SELECT id, type, data->'object'->>'id' AS object_id FROM events`);
    const paid = events.filter((e) => e.type === 'charge.succeeded');
    expect(paid).toHaveLength(CUSTOMERS);
    expect(new Set(paid.map((e) => e.object_id)).size).toBe(CUSTOMERS);
    const renewals = events.filter((e) => e.type === 'subscription.updated');
    expect(new Set(renewals.map((e) => e.object_id))).toEqual(new Set(subscriptionIds));
    expect(renewals).toHaveLength(CUSTOMERS);

    // Every event reached the receiver, verified; a repeat (the killed daemon's deliveries) carries the same body.
    const received = new Set(receiver.deliveries.map((d) => d.id));
    console.log(
      `crash: the killed daemon held ${heldDeliveries} deliveries; ${receivedBeforeKill} received before the kill; ${events.length} events, ` +
        `${receiver.deliveries.length} deliveries received in all (${receiver.deliveries.length - received.size} repeats)`,
    );
    expect(events.filter((e) => !received.has(e.id)).map((e) => e.id)).toEqual([]);
    expect(receiver.idsWithDifferentBodies()).toEqual([]);
    expect(receiver.rejected).toEqual([]);
  }, HEAVY_TEST_TIMEOUT_MS);
});
