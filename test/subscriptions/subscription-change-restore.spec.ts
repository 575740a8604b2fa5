import { Client } from 'pg';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';
import { testDatabaseUrl } from '../support/test-database';

/**
 * A database that lost a change (restored from a backup taken before it) while the provider kept its paid invoice:
 * the same change made again makes a proration charge whose invoice externalID is the lost one's (the subscription,
 * the period and the change's place in it), so it meets that invoice, adopts its payment and charges nothing twice.
 */
describe('a proration charge after a restore', () => {
  let s: Scenario;
  let db: Client;

  beforeAll(async () => {
    s = await Scenario.start();
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  it('adopts the invoice the provider holds for the change instead of charging it again', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const plan = async (name: string, price: number) =>
      (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).id;
    const basic = await plan('Basic', 3100);
    const pro = await plan('Pro', 6200);
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    await s.setClock('2027-01-16T10:00:00.000Z');
    const first = await s.post<{ chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro }, 200);
    await s.runBilling();
    const [lost] = (await db.query<{ invoice_external_id: string }>(`SELECT invoice_external_id FROM charges WHERE id = $1`, [first.chargeId])).rows;

    // The restore: the change and its charge are gone from the database; the provider still holds the paid invoice.
    await db.query(`DELETE FROM charge_attempts WHERE charge_id = $1`, [first.chargeId]);
    await db.query(`DELETE FROM charges WHERE id = $1`, [first.chargeId]);
    await db.query(`UPDATE subscriptions SET plan_id = $2 WHERE id = $1`, [sub.id, basic]);

    await s.setClock('2027-01-16T11:00:00.000Z');
    const again = await s.post<{ chargeId: string; change: { net: number } }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro }, 200);
    expect(again.change.net).toBe(1600);
    await s.runBilling();
    const [made] = (await db.query<{ invoice_external_id: string; status: string }>(`SELECT invoice_external_id, status FROM charges WHERE id = $1`, [again.chargeId])).rows;
    expect(made).toEqual({ invoice_external_id: lost.invoice_external_id, status: 'succeeded' });
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);
    expect(captured).toEqual([3100, 1600]);
  });
});
