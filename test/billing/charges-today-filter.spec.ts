import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';

/**
 * The dashboard's "declined today" and "succeeded today" open the very charges they count: those whose latest attempt in
 * the day ended so, hard declines included (they wait for a card as `failed`, not `retrying`).
 */
describe('GET /api/v1/charges by the latest attempt in a range', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ LOG_LEVEL: 'warn' });
    await s.setClock('2027-03-01T10:00:00.000Z');
  });

  afterAll(() => s?.close());

  const ids = async (query: string) => (await s.get<{ items: { id: string }[] }>(`/api/v1/charges?${query}`)).items.map((c) => c.id).sort();

  async function subscriber(card: string, script: string[] = []): Promise<string> {
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'P', price: 1000 }] });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, card);
    if (script.length > 0) await s.scriptOutcomes(customer.providerCustomerId, script);
    return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id })).id;
  }

  const chargeOf = async (subscriptionId: string) => (await s.get<{ items: { id: string; status: string }[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items[0];

  it("lists yesterday's and today's outcomes apart, hard declines with the declined", async () => {
    const yesterday = await subscriber(CARDS.renewalInsufficientFunds);
    await s.runBilling();
    await s.setClock('2027-03-02T10:00:00.000Z');
    const hard = await subscriber(CARDS.success, [EXPIRED]);
    const soft = await subscriber(CARDS.renewalInsufficientFunds);
    const paid = await subscriber(CARDS.success);
    await s.runBilling();
    expect((await chargeOf(hard)).status).toBe('failed');

    const day = 'attemptedAfter=2027-03-02T00:00:00.000Z&attemptedBefore=2027-03-03T00:00:00.000Z';
    const [hardCharge, softCharge, paidCharge, oldCharge] = await Promise.all([hard, soft, paid, yesterday].map(chargeOf));
    // Yesterday's decline was retried a day later, today, and declined again: it is one of today's declines too.
    expect(await ids(`lastAttempt=declined&${day}`)).toEqual([hardCharge.id, softCharge.id, oldCharge.id].sort());
    expect(await ids(`lastAttempt=succeeded&${day}`)).toEqual([paidCharge.id]);
    expect(await ids('lastAttempt=declined&attemptedAfter=2027-03-01T00:00:00.000Z&attemptedBefore=2027-03-02T00:00:00.000Z')).toEqual([oldCharge.id]);
    expect(await ids(`lastAttempt=declined&status=failed&${day}`)).toEqual([hardCharge.id]);
  });

  it.each([
    ['lastAttempt=maybe', 'lastAttempt'],
    ['attemptedAfter=yesterday', 'attemptedAfter'],
    ['attemptedBefore=2027-03-02T00:00:00', 'attemptedBefore'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await s.api().get(`/api/v1/charges?${query}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });
});
