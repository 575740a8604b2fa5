import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

/** round(a × d / D), half away from zero, for a ≥ 0: the oracle, on BigInt, written apart from the code under test. */
const share = (a: number, d: number, D: number) => Number((2n * BigInt(a) * BigInt(d) + BigInt(D)) / (2n * BigInt(D)));

describe('a month of daily changes under the test clock', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start();
  });

  afterAll(async () => {
    await s.close();
  });

  it('leaves the sandbox holding exactly the expected charges, to the kopeck', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Seat', product: 'Seat', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] })).id;
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: 'Europe/Moscow' });
    await s.runBilling();

    // The period is Jan 1 03:00 → Feb 1 03:00 Moscow time: 31 local days. Every day at noon the seats go up by two
    // (an upgrade, charged now, less any balance) or down by one, now (a credit to the balance, spent by later charges).
    const expected: number[] = [1000];
    let balance = 0;
    let quantity = 1;
    for (let day = 1; day <= 30; day++) {
      await s.setClock(`2027-01-${String(day).padStart(2, '0')}T09:00:00.000Z`);
      const next = day % 2 === 1 ? quantity + 2 : quantity - 1;
      const d = 32 - day;
      const net = share(1000 * next, d, 31) - share(1000 * quantity, d, 31);
      const answer = await s.post<{ change: { net: number; balanceAfter: number } }>(`/api/v1/subscriptions/${sub.id}/change`, { quantity: next, effective: 'now' }, 200);
      if (net > 0) {
        const applied = Math.min(balance, net);
        balance -= applied;
        if (net - applied > 0) expected.push(net - applied);
      } else {
        balance += -net;
      }
      expect({ day, net: answer.change.net, balanceAfter: answer.change.balanceAfter }).toEqual({ day, net, balanceAfter: balance });
      quantity = next;
      await s.runBilling();
    }
    // The renewal at the last quantity, less what is left of the balance.
    await s.setClock('2027-02-01T00:00:00.000Z');
    await s.runBilling();
    const renewalApplied = Math.min(balance, 1000 * quantity);
    if (1000 * quantity - renewalApplied > 0) expected.push(1000 * quantity - renewalApplied);
    balance -= renewalApplied;

    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(captured).toEqual(expected);
    expect(sum(captured)).toBe(sum(expected));
    expect((await s.get<{ balances: { amount: number }[] }>(`/api/v1/customers/${customer.id}/balance`)).balances).toEqual([{ currency: 'RUB', amount: balance }]);
    process.stdout.write(`a month of daily changes: ${captured.length} captures, ${sum(captured)} kopecks, balance left ${balance}\n`);
  });
});
