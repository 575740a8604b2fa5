import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { waitFor } from '../support/wait';
import { createPlan, createReadyCustomers, Engine, listCharges, setClock, startEngine, subscribeAll } from './support/billing-fixtures';
import { T0 } from './support/exactly-once';

/**
 * Cancelling a subscription now races the engine working its charge. Until a payment is created the charge is
 * dropped and nothing is charged, even when the engine is already talking to the provider; once a payment is in
 * flight, it runs to its end and the money it moved is recorded.
 */
describe('cancelling a subscription while its charge is being worked', () => {
  let sandboxHandle: SandboxHandle;
  let sandbox: SandboxClient;
  let engine: Engine;

  beforeEach(async () => {
    await resetDatabase();
    sandboxHandle = await startTestSandbox();
    sandbox = new SandboxClient(sandboxHandle.url);
    engine = await startEngine(testDatabaseUrl(), sandboxHandle.url);
  });

  afterEach(async () => {
    await engine?.close();
    await sandbox?.close();
    await sandboxHandle?.close();
  });

  async function subscription(): Promise<string> {
    await setClock(engine, T0);
    const plan = await createPlan(engine);
    const [customerId] = await createReadyCustomers(engine, sandbox, 1);
    const [id] = await subscribeAll(engine, [customerId], plan.id, T0);
    return id;
  }

  /** Starts a pass, waits until the provider is in the middle of `operation`, then cancels the subscription now. */
  async function cancelDuring(subscriptionId: string, operation: 'createInvoice' | 'createPayment'): Promise<void> {
    // Held long enough that the cancel lands inside the call, however busy the machine.
    await sandbox.control.addFault({ operation, kind: 'latency', latencyMs: 5_000, count: 1 });
    const pass = engine.runPass(1);
    await waitFor(async () => (await sandbox.control.faults())[0].hits, (hits) => hits === 1, { what: `the ${operation} call under way` });
    await engine.api().post(`/api/v1/subscriptions/${subscriptionId}/cancel`).send({ atPeriodEnd: false }).expect(200);
    await pass;
  }

  it('charges nothing when the subscription is canceled while the invoice is being created', async () => {
    const id = await subscription();
    await cancelDuring(id, 'createInvoice');
    await engine.runPass(1);

    const [charge] = await listCharges(engine);
    expect(charge).toMatchObject({ subscriptionId: id, status: 'canceled', attempts: [] });
    expect(await sandbox.control.requests('createPayment')).toHaveLength(0);
    expect((await sandbox.control.ledger()).payments).toHaveLength(0);
  });

  it('records the money when the subscription is canceled while its payment is in flight', async () => {
    const id = await subscription();
    await cancelDuring(id, 'createPayment');
    await waitFor(
      async () => {
        await engine.runPass(1);
        return (await listCharges(engine))[0];
      },
      (charge) => charge.status === 'succeeded',
      { timeoutMs: 60_000, what: 'the charge settled' },
    );

    const ledger = await sandbox.control.ledger();
    expect(ledger.payments.filter((p) => p.status === 'captured')).toHaveLength(1);
    const subscriptionNow = await engine.api().get(`/api/v1/subscriptions/${id}`).expect(200);
    expect(subscriptionNow.body.status).toBe('canceled');
  });
});
