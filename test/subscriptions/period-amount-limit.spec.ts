import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

/** The most one figure of money may hold, in minor units (a plan's amount, a period's, a credit balance). */
const LIMIT = 1_000_000_000_000_000;

/**
 * A period's amount (plan amount × quantity) stays within the limit a plan's amount has, where it is made: a
 * subscription or a change that would pass it is refused with 422 naming the field, and so is a change whose credit
 * would take the customer's balance past it. Before, a plan of 10^15 with 10,000 seats was accepted and its amount
 * (10^19) overflowed the charges' column at the renewal, failing every billing pass.
 */
describe('the period amount limit', () => {
  let s: Scenario;
  let big: string;
  let small: string;
  let customerId: string;

  const plan = async (name: string, price: number) =>
    (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).id;
  const count = async () => (await s.get<{ items: unknown[] }>('/api/v1/subscriptions?limit=200')).items.length;

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-01T00:00:00.000Z');
    big = await plan('Big', LIMIT);
    small = await plan('Small', 1_000_000_000_000);
    customerId = (await s.createCustomer()).id;
    await s.bindCard(customerId, CARDS.success);
  });

  afterAll(() => s?.close());

  it('refuses a subscription whose plan amount × quantity passes the limit with 422 naming quantity, making nothing', async () => {
    const before = await count();
    const res = await s.api().post('/api/v1/subscriptions').send({ customerId, planId: big, quantity: 10_000 });
    expect([res.status, res.body.code, res.body.field]).toEqual([422, 'business_rule', 'quantity']);
    expect(res.body.message).toContain(String(LIMIT));
    expect(res.body.message).toContain('at most 1 on this plan');
    const tooMany = await s.api().post('/api/v1/subscriptions').send({ customerId, planId: small, quantity: 1001 });
    expect([tooMany.status, tooMany.body.field]).toEqual([422, 'quantity']);
    expect(tooMany.body.message).toContain('at most 1000 on this plan');
    expect(await count()).toBe(before);
    // Exactly the limit is allowed.
    await s.post('/api/v1/subscriptions', { customerId, planId: small, quantity: 1000 });
  });

  it('refuses a change past the limit with 422 naming quantity or planId, in the preview and the change, changing nothing', async () => {
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId: small, quantity: 500 });
    // A change is priced on a billed period.
    await s.runBilling();
    for (const path of ['change/preview', 'change']) {
      const seats = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send({ quantity: 1001, effective: 'period_end' });
      expect([path, seats.status, seats.body.code, seats.body.field]).toEqual([path, 422, 'business_rule', 'quantity']);
      expect(seats.body.message).toContain(String(LIMIT));
      const plan = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send({ planId: big, effective: 'period_end' });
      expect([path, plan.status, plan.body.field]).toEqual([path, 422, 'planId']);
      // The bigger plan with fewer seats fits: the blame is on the quantity.
      const both = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send({ planId: big, quantity: 2, effective: 'period_end' });
      expect([path, both.status, both.body.field]).toEqual([path, 422, 'quantity']);
    }
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/change/preview`).send({ planId: big, quantity: 1, effective: 'period_end' })).status).toBe(200);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ planId: small, quantity: 500, pendingChange: null });
  });

  it("refuses a change whose credit would take the customer's balance past the limit", async () => {
    await s.setClock('2027-02-01T00:00:00.000Z');
    const other = (await s.createCustomer()).id;
    await s.bindCard(other, CARDS.success);
    const first = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: other, planId: big });
    const second = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: other, planId: big });
    await s.runBilling();
    await s.setClock('2027-02-02T00:00:00.000Z');
    // 27 of 28 days unused: each downgrade credits round(10^15 × 27 / 28).
    const credit = Math.round((LIMIT * 27) / 28);
    const made = await s.post<{ change: { credit: number; balanceAfter: number } }>(`/api/v1/subscriptions/${first.id}/change`, { planId: small, effective: 'now' }, 200);
    expect(made.change.credit).toBe(credit);
    const balance = async () => (await s.get<{ balances: { amount: number }[] }>(`/api/v1/customers/${other}/balance`)).balances[0].amount;
    const held = await balance();
    expect(held).toBe(made.change.balanceAfter);
    for (const path of ['change/preview', 'change']) {
      const res = await s.api().post(`/api/v1/subscriptions/${second.id}/${path}`).send({ planId: small, effective: 'now' });
      expect([path, res.status, res.body.code, res.body.field]).toEqual([path, 422, 'business_rule', 'planId']);
      expect(res.body.message).toContain('credit balance');
      expect(res.body.message).toContain(String(LIMIT));
    }
    expect(await balance()).toBe(held);
    expect(await s.get(`/api/v1/subscriptions/${second.id}`)).toMatchObject({ planId: big });
  });
});
