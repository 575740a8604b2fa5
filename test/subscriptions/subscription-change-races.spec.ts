import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { createReadyCustomers, Engine, setClock, startEngine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';

interface ChargeRow {
  id: string;
  kind: string;
  amount: number;
  paidFromBalance: number;
  status: string;
  periodStart: string;
}

/**
 * Changes that meet each other and the renewal: three daemons (each its own app, pool and worker) on one database
 * and one sandbox. The same change sent to all three at once makes one change and one charge; a change racing the
 * renewal leaves one consistent story whichever wins. The sandbox's ledger is the judge.
 */
describe('subscription changes across replicas and against the renewal', () => {
  let sandbox: SandboxClient;
  const engines: Engine[] = [];
  let basic: string;
  let pro: string;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    for (let i = 0; i < 3; i++) engines.push(await startEngine(testDatabaseUrl(), sandbox.url));
    const plan = async (name: string, price: number) =>
      (await engines[0].api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).body.id as string;
    basic = await plan('Basic', 3100);
    pro = await plan('Pro', 6200);
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    for (const e of engines) await e.close();
    await sandbox?.close();
  });

  const runAll = () => Promise.all(engines.map((e) => e.runPass()));
  const chargesOf = async (id: string) => (await engines[0].api().get(`/api/v1/subscriptions/${id}/charges`)).body.items as ChargeRow[];
  async function capturedFor(subscriptionId: string): Promise<number[]> {
    const payments = (await sandbox.control.ledger()).payments;
    return payments.filter((p) => p.status === 'captured' && p.invoiceMetadata.subscriptionId === subscriptionId).map((p) => p.amount);
  }

  it(
    'the same change on three replicas at once: one change, one charge, one capture',
    async () => {
      await setClock(engines[0], '2027-01-01T00:00:00.000Z');
      const [customerId] = await createReadyCustomers(engines[0], sandbox, 1);
      const sub = (await engines[0].api().post('/api/v1/subscriptions').send({ customerId, planId: basic })).body.id as string;
      await runAll();
      await setClock(engines[0], '2027-01-16T10:00:00.000Z');
      const answers = await Promise.all(engines.map((e) => e.api().post(`/api/v1/subscriptions/${sub}/change`).send({ planId: pro })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 409, 409]);
      await runAll();
      await runAll();
      const prorations = (await chargesOf(sub)).filter((c) => c.kind === 'proration');
      expect(prorations).toEqual([expect.objectContaining({ amount: 1600, status: 'succeeded' })]);
      expect(await capturedFor(sub)).toEqual([3100, 1600]);
      const changed = ((await engines[1].api().get(`/api/v1/subscriptions/${sub}/events`)).body.items as { type: string }[]).filter((e) => e.type === 'changed');
      expect(changed).toHaveLength(1);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    'a change racing the renewal: either the change is refused until the renewal is made and settled, or it prorates the new period',
    async () => {
      await setClock(engines[0], '2027-03-01T00:00:00.000Z');
      const [customerId] = await createReadyCustomers(engines[0], sandbox, 1);
      const sub = (await engines[0].api().post('/api/v1/subscriptions').send({ customerId, planId: basic })).body.id as string;
      await runAll();
      await setClock(engines[0], '2027-04-01T00:00:00.000Z');
      const [change] = await Promise.all([engines[1].api().post(`/api/v1/subscriptions/${sub}/change`).send({ planId: pro }), engines[0].runPass(), engines[2].runPass()]);
      await runAll();
      await runAll();
      const charges = await chargesOf(sub);
      const renewal = charges.filter((c) => c.kind === 'period' && c.periodStart === '2027-04-01T00:00:00.000Z');
      expect(renewal).toHaveLength(1);
      const prorations = charges.filter((c) => c.kind === 'proration');
      const view = (await engines[0].api().get(`/api/v1/subscriptions/${sub}`)).body as { planId: string };
      if (change.status === 200) {
        // The renewal came first and settled: the change prorates the whole new period (3100 credit, 6200 cost).
        expect([renewal[0].amount, prorations.map((p) => p.amount)]).toEqual([3100, [3100]]);
      } else {
        // The renewal was due and not made yet (the change is priced on the period in force, never on the one before),
        // or its charge was in flight: the change was refused and nothing changed.
        expect([change.status, change.body.code, view.planId, prorations]).toEqual([409, 'subscription_not_changeable', basic, []]);
      }
      expect(view.planId).toBe(change.status === 200 ? pro : basic);
      const expected = charges.filter((c) => c.status === 'succeeded').map((c) => c.amount - c.paidFromBalance).filter((a) => a > 0);
      expect((await capturedFor(sub)).sort()).toEqual(expected.sort());
      process.stdout.write(`change vs renewal: change ${change.status}, renewal ${renewal[0].amount}, prorations [${prorations.map((p) => p.amount).join(', ')}]\n`);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
