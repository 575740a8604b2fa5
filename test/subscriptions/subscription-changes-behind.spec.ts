import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

interface Figures {
  effectiveAt: string;
  credit: number;
  cost: number;
  net: number;
  nextChargeAt: string;
}
interface Charge {
  kind: string;
  amount: number;
  status: string;
  periodStart: string;
}

/**
 * A change while billing is behind (the renewal due but not made: a backlog, an outage, the scheduler off) is priced
 * on the period in force at the change, never on the period before it: until that period is made, the preview and
 * the change answer the same 409 and nothing changes; once it is, the change prorates against it.
 */
describe('a subscription change while billing is behind', () => {
  let s: Scenario;
  let basic: string;
  let pro: string;
  let customer: { id: string; providerCustomerId: string };

  const plan = async (name: string, price: number) =>
    (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).id;
  const charges = async (id: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${id}/charges`)).items;
  const captured = async () => (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-02T00:00:00.000Z');
    pro = await plan('Pro', 3000);
    basic = await plan('Basic', 1500);
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s.close();
  });

  it('is refused until the due periods are billed, then prorates against the period in force', async () => {
    await s.setClock('2027-01-02T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: pro });
    await s.runBilling();
    // Paid to Feb 2; on Mar 14 the renewals of Feb 2 and Mar 2 are not made yet.
    await s.setClock('2027-03-14T00:00:00.000Z');
    const before = { subscription: await s.get(`/api/v1/subscriptions/${sub.id}`), charges: await charges(sub.id) };
    for (const body of [{ planId: basic, effective: 'now' }, { planId: basic }, { quantity: 3 }, { planId: basic, prorate: false }]) {
      for (const path of ['change/preview', 'change']) {
        const res = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send(body);
        expect({ body, path, status: res.status, code: res.body.code }).toEqual({ body, path, status: 409, code: 'subscription_not_changeable' });
        expect(res.body.message).toContain('2027-02-02T00:00:00.000Z');
      }
    }
    expect({ subscription: await s.get(`/api/v1/subscriptions/${sub.id}`), charges: await charges(sub.id) }).toEqual(before);
    expect((await s.get<{ balances: unknown[] }>(`/api/v1/customers/${customer.id}/balance`)).balances).toEqual([]);

    // Billing catches up: Feb 2 and Mar 2 are Pro periods, charged as Pro.
    await s.runBilling();
    expect((await charges(sub.id)).filter((c) => c.kind === 'period').map((c) => [c.periodStart, c.amount, c.status]).sort()).toEqual([
      ['2027-01-02T00:00:00.000Z', 3000, 'succeeded'],
      ['2027-02-02T00:00:00.000Z', 3000, 'succeeded'],
      ['2027-03-02T00:00:00.000Z', 3000, 'succeeded'],
    ]);

    // Now against Mar 2 → Apr 2 (31 days), 19 left from Mar 14: credit 3000 × 19/31 = 1839, cost 1500 × 19/31 = 919.
    const preview = await s.post<Figures>(`/api/v1/subscriptions/${sub.id}/change/preview`, { planId: basic, effective: 'now' }, 200);
    const made = await s.post<{ change: Figures; chargeId: string | null }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: basic, effective: 'now' }, 200);
    expect(made.change).toEqual(preview);
    expect(made).toMatchObject({ chargeId: null, change: { effectiveAt: '2027-03-14T00:00:00.000Z', credit: 1839, cost: 919, net: -920, nextChargeAt: '2027-04-02T00:00:00.000Z' } });
    expect((await s.get<{ balances: unknown[] }>(`/api/v1/customers/${customer.id}/balance`)).balances).toEqual([{ currency: 'RUB', amount: 920 }]);
    expect(await captured()).toEqual([3000, 3000, 3000]);
  });

  it('an upgrade while behind bills no seats for a period before they existed', async () => {
    await s.setClock('2027-05-02T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    await s.setClock('2027-06-20T00:00:00.000Z');
    const refused = await s.api().post(`/api/v1/subscriptions/${sub.id}/change`).send({ quantity: 4 });
    expect([refused.status, refused.body.code]).toEqual([409, 'subscription_not_changeable']);
    await s.runBilling();
    // Jun 2 → Jul 2 (30 days), 12 left from Jun 20: credit 1500 × 12/30 = 600, cost 6000 × 12/30 = 2400.
    const up = await s.post<{ change: Figures; chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { quantity: 4 }, 200);
    expect(up.change).toMatchObject({ credit: 600, cost: 2400, net: 1800 });
    await s.runBilling();
    // May 2 and Jun 2 at one seat (the seats came on Jun 20), then the proration.
    expect((await charges(sub.id)).map((c) => [c.kind, c.periodStart, c.amount, c.status]).sort()).toEqual([
      ['period', '2027-05-02T00:00:00.000Z', 1500, 'succeeded'],
      ['period', '2027-06-02T00:00:00.000Z', 1500, 'succeeded'],
      ['proration', '2027-06-20T00:00:00.000Z', 1800, 'succeeded'],
    ]);
  });
});
