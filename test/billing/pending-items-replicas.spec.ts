import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';
import { createPlan, createReadyCustomers, drain, Engine, listCharges, setClock, startEngine, subscribeAll } from './support/billing-fixtures';

interface Item {
  id: string;
  subscriptionId: string;
  amount: number;
  status: string;
  chargeId: string | null;
}

const JAN = '2027-01-05T10:00:00.000Z';
const FEB = '2027-02-05T10:00:00.000Z';
/** More than a pass's first batch (25): the replicas' batches lock different subscriptions at the same time. */
const SUBSCRIPTIONS = 40;

/**
 * Pending items under two replicas billing at once, one of which loses its database connection between making a
 * renewal's charge and marking its items billed: every item is billed exactly once, on the charge of the renewal
 * after it, and the provider captures each renewal once at the plan's amount plus its items.
 */
describe('pending items billed exactly once across replicas and a lost connection', () => {
  let sandbox: SandboxClient;
  let proxy: PostgresFaultProxy;
  let direct: Engine;
  let proxied: Engine;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    direct = await startEngine(testDatabaseUrl(), sandbox.url);
    proxied = await startEngine(proxy.urlFor(testDatabaseUrl()), sandbox.url);
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  const itemsOf = async (subscriptionId: string) => (await direct.api().get(`/api/v1/subscriptions/${subscriptionId}/pending-items`).query({ limit: 200 })).body.items as Item[];

  it(
    'bills every item once, on its renewal, however the passes of two replicas and a cut connection fall',
    async () => {
      await setClock(direct, JAN);
      const plan = await createPlan(direct);
      const customers = await createReadyCustomers(direct, sandbox, SUBSCRIPTIONS);
      const subscriptions = await subscribeAll(direct, customers, plan.id, JAN);
      await Promise.all([direct.runPass(), proxied.runPass()]);
      // One to three items each, of different amounts; both replicas take them, as any replica serves the API.
      const expected = new Map<string, number>();
      for (const [i, sub] of subscriptions.entries()) {
        let total = 0;
        for (let k = 0; k <= i % 3; k++) {
          const engine = k % 2 === 0 ? direct : proxied;
          const price = 100 + i * 10 + k;
          const res = await engine.api().post(`/api/v1/customers/${customers[i]}/charges`).send({ lines: [{ product: `Extra ${k}`, price, taxRate: '22%' }], currency: 'RUB', when: 'next_renewal', subscriptionId: sub });
          expect(res.status).toBe(201);
          total += price;
        }
        expected.set(sub, total);
      }

      await setClock(direct, FEB);
      // The proxied replica dies (its connection cut) just as it marks its first batch's items billed: its charges go
      // with the transaction, and its subscriptions wait for a pass that makes them whole.
      const cut = proxy.cutBefore(/UPDATE pending_items p SET status = 'billed'/);
      await expect(proxied.runPass()).rejects.toThrow();
      await cut;
      expect((await listCharges(direct)).filter((c) => c.periodStart === FEB)).toEqual([]);
      for (const sub of subscriptions) expect((await itemsOf(sub)).every((item) => item.status === 'pending')).toBe(true);

      // Then both replicas bill at once, passes racing for the same subscriptions and charges.
      await Promise.all([direct.runPass(), proxied.runPass(), direct.runPass(), proxied.runPass()]);
      const { settled } = await drain([direct, proxied], SUBSCRIPTIONS * 2);
      expect(settled).toBe(true);

      const charges = await listCharges(direct);
      const ledger = (await sandbox.control.ledger()).payments.filter((p) => p.status === 'captured');
      for (const sub of subscriptions) {
        const renewals = charges.filter((c) => c.subscriptionId === sub && c.periodStart === FEB);
        expect(renewals).toHaveLength(1);
        const [renewal] = renewals;
        expect({ sub, amount: renewal.amount, status: renewal.status }).toEqual({ sub, amount: plan.amount + (expected.get(sub) as number), status: 'succeeded' });
        const items = await itemsOf(sub);
        expect(items.map((item) => [item.status, item.chargeId])).toEqual(items.map(() => ['billed', renewal.id]));
        expect(ledger.filter((p) => p.invoiceMetadata?.chargeId === renewal.id).map((p) => p.amount)).toEqual([renewal.amount]);
      }
      // Every capture is one period's: none for an item on its own, none twice.
      expect(ledger).toHaveLength(SUBSCRIPTIONS * 2);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
