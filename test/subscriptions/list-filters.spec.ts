import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface Item {
  id: string;
  createdAt: string;
  status?: string;
}

interface Page {
  items: Item[];
  nextCursor: string | null;
}

const PLAN = { product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'P', price: 1000 }] };

/** Filters and created ranges on the lists of plans, customers, subscriptions, charges and audit events. */
describe('list filters', () => {
  let s: Scenario;
  const ids = (page: Page) => page.items.map((item) => item.id);
  const list = (path: string) => s.get<Page>(path);

  let planA: string;
  let planB: string;
  let ready: string;
  let unready: string;
  let subscriptions: { readyOnA: string; readyOnB: string; unreadyOnA: string };

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-03-01T00:00:00.000Z');
    // The clock stands still: these share one createdAt, and still list newest first.
    planA = (await s.post<Item>('/api/v1/plans', { name: 'A', ...PLAN })).id;
    planB = (await s.post<Item>('/api/v1/plans', { name: 'B', ...PLAN })).id;
    ready = (await s.createCustomer()).id;
    await s.bindCard(ready, CARDS.success);
    unready = (await s.createCustomer()).id;
    subscriptions = {
      readyOnA: (await s.post<Item>('/api/v1/subscriptions', { customerId: ready, planId: planA })).id,
      readyOnB: (await s.post<Item>('/api/v1/subscriptions', { customerId: ready, planId: planB })).id,
      unreadyOnA: (await s.post<Item>('/api/v1/subscriptions', { customerId: unready, planId: planA })).id,
    };
    await s.runBilling();
  });

  afterAll(async () => {
    await s.close();
  });

  it('lists rows made at one instant newest first, and pages through them without loss', async () => {
    expect(ids(await list('/api/v1/plans'))).toEqual([planB, planA]);
    const first = await list('/api/v1/plans?limit=1');
    expect(ids(first)).toEqual([planB]);
    expect(ids(await list(`/api/v1/plans?limit=1&cursor=${first.nextCursor}`))).toEqual([planA]);
    expect(ids(await list('/api/v1/subscriptions'))).toEqual([subscriptions.unreadyOnA, subscriptions.readyOnB, subscriptions.readyOnA]);
  });

  it('filters customers by status', async () => {
    expect(ids(await list('/api/v1/customers?status=ready'))).toEqual([ready]);
    expect(ids(await list('/api/v1/customers?status=unready'))).toEqual([unready]);
    const bad = await s.api().get('/api/v1/customers?status=gone');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('status must be one of unready, ready');
  });

  it('filters subscriptions by plan (alone or with customer and status)', async () => {
    expect(ids(await list(`/api/v1/subscriptions?planId=${planA}`))).toEqual([subscriptions.unreadyOnA, subscriptions.readyOnA]);
    expect(ids(await list(`/api/v1/subscriptions?planId=${planA}&customerId=${ready}`))).toEqual([subscriptions.readyOnA]);
    expect(ids(await list(`/api/v1/subscriptions?planId=${planB}&status=active`))).toEqual([subscriptions.readyOnB]);
    expect(ids(await list(`/api/v1/subscriptions?planId=${planB}&status=incomplete`))).toEqual([]);
    const bad = await s.api().get('/api/v1/subscriptions?planId=plan-a');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('planId must be a UUID');
  });

  it('filters charges by customer and status', async () => {
    const charges = await list(`/api/v1/charges?customerId=${ready}`);
    expect(charges.items).toHaveLength(2);
    expect(charges.items.map((c) => (c as unknown as { subscriptionId: string }).subscriptionId).sort()).toEqual(
      [subscriptions.readyOnA, subscriptions.readyOnB].sort(),
    );
    expect(ids(await list(`/api/v1/charges?customerId=${ready}&status=succeeded`)).sort()).toEqual(ids(charges).sort());
    expect(ids(await list(`/api/v1/charges?customerId=${ready}&status=failed`))).toEqual([]);
    expect(ids(await list(`/api/v1/charges?customerId=${unready}`))).toEqual([]);
    const bad = await s.api().get('/api/v1/charges?customerId=someone');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('customerId must be a UUID');
  });

  it('takes a created range: createdAfter inclusive, createdBefore exclusive', async () => {
    await s.setClock('2027-03-10T12:00:00.000Z');
    const later = (await s.post<Item>('/api/v1/plans', { name: 'C', ...PLAN })).id;
    expect(ids(await list('/api/v1/plans?createdAfter=2027-03-05T00:00:00Z'))).toEqual([later]);
    expect(ids(await list('/api/v1/plans?createdBefore=2027-03-05T00:00:00%2B03:00'))).toEqual([planB, planA]);
    expect(ids(await list('/api/v1/plans?createdAfter=2027-03-10T12:00:00.000Z'))).toEqual([later]);
    expect(ids(await list('/api/v1/plans?createdBefore=2027-03-10T12:00:00.000Z'))).toEqual([planB, planA]);
    expect(ids(await list('/api/v1/plans?createdAfter=2027-03-01T00:00:00Z&createdBefore=2027-03-01T00:00:00.001Z&limit=1'))).toEqual([planB]);

    // Charges keep the instant their row was written: the range follows it, whatever it is.
    const [charge] = (await list(`/api/v1/charges?subscriptionId=${subscriptions.readyOnA}`)).items;
    expect(ids(await list(`/api/v1/charges?createdAfter=${encodeURIComponent(charge.createdAt)}&customerId=${ready}`))).toContain(charge.id);
    expect(ids(await list(`/api/v1/charges?createdBefore=${encodeURIComponent(charge.createdAt)}&subscriptionId=${subscriptions.readyOnA}`))).toEqual([]);
    expect(ids(await list(`/api/v1/subscriptions/${subscriptions.readyOnA}/charges?createdAfter=${encodeURIComponent(charge.createdAt)}`))).toEqual([charge.id]);

    const events = await list(`/api/v1/subscriptions/${subscriptions.readyOnA}/events`);
    expect(events.items.length).toBeGreaterThan(0);
    expect((await list(`/api/v1/subscriptions/${subscriptions.readyOnA}/events?createdAfter=2027-03-02T00:00:00Z`)).items).toEqual([]);
    expect((await list(`/api/v1/subscriptions/${subscriptions.readyOnA}/events?createdBefore=2027-03-02T00:00:00Z`)).items).toEqual(events.items);
  });

  it('refuses a created bound that is not a zoned ISO date-time, or an empty range, with 400 naming the field, on every list', async () => {
    const lists = [
      '/api/v1/plans',
      '/api/v1/customers',
      `/api/v1/customers/${ready}/bindings`,
      '/api/v1/subscriptions',
      `/api/v1/subscriptions/${subscriptions.readyOnA}/charges`,
      `/api/v1/subscriptions/${subscriptions.readyOnA}/events`,
      '/api/v1/charges',
      '/api/v1/payouts',
      '/api/v1/payouts/destinations',
      '/api/v1/payouts/batches',
    ];
    const cases: [string, string][] = [
      ['createdAfter=yesterday', 'createdAfter must be an ISO 8601 date-time with a zone'],
      ['createdAfter=2027-03-01', 'createdAfter must be an ISO 8601 date-time with a zone'],
      ['createdBefore=2027-03-01T00:00:00', 'createdBefore must be an ISO 8601 date-time with a zone'],
      ['createdBefore=2027-02-30T00:00:00Z', 'createdBefore must be an ISO 8601 date-time with a zone'],
      ['createdAfter=2027-03-01T00:00:00Z&createdAfter=2027-03-02T00:00:00Z', 'createdAfter must be an ISO 8601 date-time with a zone'],
      ['createdAfter=2027-03-02T00:00:00Z&createdBefore=2027-03-02T00:00:00Z', 'createdBefore must be later than createdAfter'],
      ['createdSince=2027-03-01T00:00:00Z', 'property createdSince should not exist'],
    ];
    for (const path of lists) {
      expect((await s.api().get(`${path}?createdAfter=2027-01-01T00:00:00Z&createdBefore=2099-01-01T00:00:00Z`)).status).toBe(200);
      for (const [query, message] of cases) {
        const res = await s.api().get(`${path}?${query}`);
        expect({ path, query, status: res.status, message: JSON.stringify(res.body.message) }).toEqual({
          path,
          query,
          status: 400,
          message: expect.stringContaining(message),
        });
      }
    }
  });
});
