import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

interface Figures {
  credit: number;
  cost: number;
  net: number;
  balanceAfter: number;
}
interface Charge {
  id: string;
  kind: string;
  amount: number;
  paidFromBalance: number;
  status: string;
  periodStart: string;
}

/**
 * Several changes of one subscription at one instant (the test clock standing still, or two changes in one
 * millisecond): each is charged or credited exactly as it answered, under an identity of its own, or refused with a
 * clear 409 that changes nothing.
 */
describe('subscription changes at one instant', () => {
  let s: Scenario;
  let basic: string;
  let pro: string;
  let customer: { id: string; providerCustomerId: string };

  const plan = async (name: string, price: number, extra: object = {}) =>
    (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }], ...extra })).id;
  const charges = async (id: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${id}/charges`)).items;
  const captured = async () => (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);
  const balance = async () => (await s.get<{ balances: { amount: number }[]; entries: { kind: string; amount: number }[] }>(`/api/v1/customers/${customer.id}/balance`));
  /** Previews the change, makes it, and answers both figures. */
  async function change(sub: string, body: object): Promise<{ preview: Figures; change: Figures; chargeId: string | null }> {
    const preview = await s.post<Figures>(`/api/v1/subscriptions/${sub}/change/preview`, body, 200);
    const made = await s.post<{ change: Figures; chargeId: string | null }>(`/api/v1/subscriptions/${sub}/change`, body, 200);
    return { preview, ...made };
  }

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-01T00:00:00.000Z');
    basic = await plan('Basic', 3100);
    pro = await plan('Pro', 6200);
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s.close();
  });

  it('an upgrade and then a change of quantity at the same instant are both charged, each on an invoice of its own', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    // Jan 16: 16 of 31 days left. Basic → Pro: credit 1600, cost 3200, net 1600.
    await s.setClock('2027-01-16T10:00:00.000Z');
    const up = await change(sub.id, { planId: pro });
    expect(up.change).toEqual(up.preview);
    expect(up.change).toMatchObject({ net: 1600 });
    await s.runBilling();
    // The clock stands still. Pro × 1 → Pro × 2: credit 3200, cost 6400, net 3200.
    const seats = await change(sub.id, { quantity: 2 });
    expect(seats.change).toEqual(seats.preview);
    expect(seats.change).toMatchObject({ credit: 3200, cost: 6400, net: 3200 });
    await s.runBilling();

    const prorations = (await charges(sub.id)).filter((c) => c.kind === 'proration');
    expect(prorations.map((c) => [c.id, c.amount, c.status, c.periodStart]).sort()).toEqual(
      [
        [up.chargeId, 1600, 'succeeded', '2027-01-16T10:00:00.000Z'],
        [seats.chargeId, 3200, 'succeeded', '2027-01-16T10:00:00.000Z'],
      ].sort(),
    );
    expect(await captured()).toEqual([3100, 1600, 3200]);
    const invoices = (await s.sandboxRequests('createInvoice')).filter((r) => (r.body as { metadata?: { subscriptionId?: string } }).metadata?.subscriptionId === sub.id);
    expect(new Set(invoices.map((r) => (r.body as { externalID: string }).externalID)).size).toBe(3);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('a second credit at the same instant reaches the balance the answer shows', async () => {
    await s.setClock('2027-03-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: pro });
    await s.runBilling();
    const balanceBefore = (await balance()).balances[0]?.amount ?? 0;
    // Mar 14: 18 of 31 days left. Pro → Basic: credit 3600, cost 1800, net −1800 to the balance.
    await s.setClock('2027-03-14T00:00:00.000Z');
    const down = await change(sub.id, { planId: basic, effective: 'now' });
    expect(down.change).toMatchObject({ net: -1800, balanceAfter: balanceBefore + 1800 });
    // Basic → Pro: net 1800, paid from the balance; the charge is settled before the next change.
    const up = await change(sub.id, { planId: pro });
    expect(up.change).toMatchObject({ net: 1800, balanceAfter: balanceBefore });
    await s.runBilling();
    expect((await charges(sub.id)).find((c) => c.id === up.chargeId)).toMatchObject({ amount: 1800, paidFromBalance: 1800, status: 'succeeded' });
    // Pro → Basic again, at the same instant: 1800 more credit.
    const again = await change(sub.id, { planId: basic, effective: 'now' });
    expect(again.change).toEqual(again.preview);
    expect(again.change).toMatchObject({ net: -1800, balanceAfter: balanceBefore + 1800 });

    const after = await balance();
    expect(after.balances).toEqual([{ currency: 'RUB', amount: again.change.balanceAfter }]);
    expect(after.entries.slice(0, 3).map((e) => [e.kind, e.amount])).toEqual([
      ['proration_credit', 1800],
      ['applied', -1800],
      ['proration_credit', 1800],
    ]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('a second move to another interval at the same instant is refused with a 409 that changes nothing', async () => {
    const yearly = await plan('Yearly', 36500, { interval: 'year' });
    const biennial = await plan('Biennial', 70000, { interval: 'year', intervalCount: 2 });
    await s.setClock('2027-07-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    await s.setClock('2027-07-17T00:00:00.000Z');
    const first = await change(sub.id, { planId: yearly });
    expect(first.change).toMatchObject({ net: 35000 });
    await s.runBilling();
    const before = { subscription: await s.get(`/api/v1/subscriptions/${sub.id}`), charges: await charges(sub.id), captured: await captured() };

    // A period of the yearly plan starts at this instant already: a second one cannot start at the same instant.
    for (const path of ['change/preview', 'change']) {
      const res = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send({ planId: biennial });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 409, code: 'subscription_not_changeable' });
      expect(res.body.message).toContain('2027-07-17T00:00:00.000Z');
    }
    expect({ subscription: await s.get(`/api/v1/subscriptions/${sub.id}`), charges: await charges(sub.id), captured: await captured() }).toEqual(before);

    // A moment later the move is made, charged as it answered.
    await s.setClock('2027-07-17T00:00:01.000Z');
    const later = await change(sub.id, { planId: biennial });
    expect(later.change).toEqual(later.preview);
    await s.runBilling();
    expect(await captured()).toEqual([...before.captured, later.change.net]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });
});
