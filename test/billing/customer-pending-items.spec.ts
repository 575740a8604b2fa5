import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface Item {
  id: string;
  subscriptionId: string;
  amount: number;
  status: string;
  description: string | null;
}

/** A customer's pending items across their subscriptions, for the console's customer page, and dropping one. */
describe("GET /api/v1/customers/{id}/pending-items", () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ LOG_LEVEL: 'warn' });
    await s.setClock('2027-01-01T00:00:00.000Z');
  });
  afterAll(() => s?.close());

  it("lists the customer's items of every subscription, newest first, by status, and none of another customer's", async () => {
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Team', product: 'Team', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] });
    const customer = await s.createCustomer();
    const other = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const subs = [await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id }), await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id })];
    const add = (customerId: string, subscriptionId: string, description: string, price: number) =>
      s.post<Item>(`/api/v1/customers/${customerId}/charges`, { lines: [{ product: description, price }], currency: 'RUB', when: 'next_renewal', subscriptionId, description });
    const first = await add(customer.id, subs[0].id, 'Extra seat', 1500);
    const second = await add(customer.id, subs[1].id, 'Workbook', 999);
    const third = await add(customer.id, subs[0].id, 'Training', 2500);
    await s.api().delete(`/api/v1/pending-items/${third.id}`).expect(200);

    const all = (await s.get<{ items: Item[] }>(`/api/v1/customers/${customer.id}/pending-items`)).items;
    expect(all.map((i) => [i.description, i.status])).toEqual([
      ['Training', 'canceled'],
      ['Workbook', 'pending'],
      ['Extra seat', 'pending'],
    ]);
    const pending = (await s.get<{ items: Item[] }>(`/api/v1/customers/${customer.id}/pending-items?status=pending`)).items;
    expect(pending.map((i) => i.id)).toEqual([second.id, first.id]);
    expect((await s.get<{ items: Item[] }>(`/api/v1/customers/${other.id}/pending-items`)).items).toEqual([]);

    await s.api().get(`/api/v1/customers/${customer.id}/pending-items?status=waiting`).expect(400);
    await s.api().get('/api/v1/customers/0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f/pending-items').expect(404);
  });
});
