import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

interface Figures {
  effectiveAt: string;
  credit: number;
  cost: number;
  net: number;
  balanceAfter: number;
  nextChargeAt: string;
  nextChargeAmount: number;
  lines: { description: string; amount: number }[];
}
interface Charge {
  id: string;
  kind: string;
  amount: number;
  paidFromBalance: number;
  status: string;
  periodStart: string;
}

describe('subscription changes over the admin API: preview, upgrade now, downgrade, credit balance', () => {
  let s: Scenario;
  let basic: string;
  let pro: string;
  let yearly: string;
  let usd: string;
  let customer: { id: string; providerCustomerId: string };

  const plan = async (name: string, price: number, extra: object = {}) =>
    (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }], ...extra })).id;
  const charges = async (id: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${id}/charges`)).items;
  const captured = async () => (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-01T00:00:00.000Z');
    basic = await plan('Basic', 3100);
    pro = await plan('Pro', 6200);
    yearly = await plan('Yearly', 36500, { interval: 'year' });
    usd = await plan('Dollars', 100, { currency: 'USD' });
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s.close();
  });

  it('refuses bad bodies with 400 naming the field, unknown ids with 404, another currency with 422, changing nothing', async () => {
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    for (const [body, field] of [
      [{}, 'planId'],
      [{ planId: 'x' }, 'planId'],
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: 2, effective: 'tomorrow' }, 'effective'],
      [{ quantity: 2, prorate: 'yes' }, 'prorate'],
      [{ quantity: 2, price: 5 }, 'price'],
    ] as const) {
      for (const path of ['change', 'change/preview']) {
        const res = await s.api().post(`/api/v1/subscriptions/${sub.id}/${path}`).send(body);
        expect({ path, body, status: res.status, field: res.body.field }).toEqual({ path, body, status: 400, field });
      }
    }
    expect((await s.api().post('/api/v1/subscriptions/00000000-0000-4000-8000-000000000000/change').send({ quantity: 2 })).status).toBe(404);
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/change`).send({ planId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const other = await s.api().post(`/api/v1/subscriptions/${sub.id}/change`).send({ planId: usd });
    expect([other.status, other.body.field]).toEqual([422, 'planId']);
    const same = await s.api().post(`/api/v1/subscriptions/${sub.id}/change`).send({ planId: basic, quantity: 1 });
    expect(same.status).toBe(409);
    await s.post(`/api/v1/subscriptions/${sub.id}/pause`, {}, 200);
    const paused = await s.api().post(`/api/v1/subscriptions/${sub.id}/change`).send({ quantity: 2 });
    expect([paused.status, paused.body.code]).toEqual([409, 'subscription_not_changeable']);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ planId: basic, quantity: 1, pendingChange: null });
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('upgrades now with a prorated charge equal to the preview, downgrades now into the credit balance, and spends it at the renewal', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    expect(await captured()).toEqual([3100]);

    // Jan 16: 16 of 31 days left. Credit 3100 × 16/31 = 1600, cost 6200 × 16/31 = 3200.
    await s.setClock('2027-01-16T10:00:00.000Z');
    const preview = await s.post<Figures>(`/api/v1/subscriptions/${sub.id}/change/preview`, { planId: pro }, 200);
    expect(preview).toMatchObject({ effectiveAt: '2027-01-16T10:00:00.000Z', credit: 1600, cost: 3200, net: 1600, balanceAfter: 0, nextChargeAt: '2027-02-01T00:00:00.000Z', nextChargeAmount: 6200 });
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ planId: basic });
    const result = await s.post<{ subscription: { planId: string }; change: Figures; chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro }, 200);
    expect(result.change).toEqual(preview);
    expect(result.subscription.planId).toBe(pro);
    await s.runBilling();
    expect(await captured()).toEqual([3100, 1600]);
    const proration = (await charges(sub.id)).find((c) => c.id === result.chargeId);
    expect(proration).toMatchObject({ kind: 'proration', amount: 1600, status: 'succeeded', paidFromBalance: 0 });
    const invoice = (await s.sandboxRequests('createInvoice')).find((r) => (r.body as { metadata?: { chargeId?: string } }).metadata?.chargeId === result.chargeId);
    expect(invoice?.body).toMatchObject({ amount: 1600, cart: [{ product: 'Basic → Pro, 16 of 31 days', price: 1600, quantity: 1 }] });

    // Jan 26, down to Basic now: 6 of 31 days. Credit 6200 × 6/31 = 1200, cost 3100 × 6/31 = 600: 600 to the balance.
    await s.setClock('2027-01-26T08:00:00.000Z');
    const down = await s.post<{ change: Figures; chargeId: string | null }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: basic, effective: 'now' }, 200);
    expect(down).toMatchObject({ chargeId: null, change: { credit: 1200, cost: 600, net: -600, balanceAfter: 600 } });
    expect(await s.get(`/api/v1/customers/${customer.id}/balance`)).toMatchObject({ balances: [{ currency: 'RUB', amount: 600 }], entries: [{ kind: 'proration_credit', amount: 600 }] });

    // The renewal is charged 3100, 600 of it from the balance: the provider is asked for 2500.
    await s.setClock('2027-02-01T00:00:00.000Z');
    await s.runBilling();
    expect(await captured()).toEqual([3100, 1600, 2500]);
    const renewal = (await charges(sub.id)).find((c) => c.periodStart === '2027-02-01T00:00:00.000Z');
    expect(renewal).toMatchObject({ kind: 'period', amount: 3100, paidFromBalance: 600, status: 'succeeded' });
    expect((await s.get<{ balances: { amount: number }[] }>(`/api/v1/customers/${customer.id}/balance`)).balances).toEqual([{ currency: 'RUB', amount: 0 }]);

    const events = (await s.get<{ items: { type: string; data: Record<string, unknown> }[] }>(`/api/v1/subscriptions/${sub.id}/events`)).items;
    expect(events.filter((e) => e.type === 'changed').map((e) => [e.data.credit, e.data.cost, e.data.net])).toEqual([
      [1200, 600, -600],
      [1600, 3200, 1600],
    ]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('downgrades at the period end by default, drops a pending change on DELETE, and applies one at the renewal', async () => {
    await s.setClock('2027-03-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: pro, quantity: 2 });
    await s.runBilling();
    await s.setClock('2027-03-10T00:00:00.000Z');
    const scheduled = await s.post<{ subscription: { pendingChange: unknown; planId: string }; change: Figures; chargeId: null }>(`/api/v1/subscriptions/${sub.id}/change`, { quantity: 1 }, 200);
    expect(scheduled.change).toMatchObject({ effectiveAt: '2027-04-01T00:00:00.000Z', credit: 0, cost: 0, net: 0, nextChargeAmount: 6200 });
    expect(scheduled.subscription).toMatchObject({ planId: pro, pendingChange: { planId: pro, quantity: 1, effectiveAt: '2027-04-01T00:00:00.000Z' } });
    const dropped = await s.api().delete(`/api/v1/subscriptions/${sub.id}/change`);
    expect([dropped.status, dropped.body.pendingChange]).toEqual([200, null]);
    expect((await s.api().delete(`/api/v1/subscriptions/${sub.id}/change`)).status).toBe(200);
    await s.post(`/api/v1/subscriptions/${sub.id}/change`, { planId: basic, quantity: 3 }, 200);
    await s.setClock('2027-04-01T00:00:00.000Z');
    await s.runBilling();
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ planId: basic, quantity: 3, pendingChange: null });
    expect((await charges(sub.id)).find((c) => c.periodStart === '2027-04-01T00:00:00.000Z')).toMatchObject({ amount: 9300, status: 'succeeded' });
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('with prorate false and during a trial changes the plan with nothing charged or credited', async () => {
    await s.setClock('2027-05-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    await s.setClock('2027-05-11T00:00:00.000Z');
    const flat = await s.post<{ change: Figures; chargeId: null }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro, prorate: false }, 200);
    expect(flat).toMatchObject({ chargeId: null, change: { credit: 0, cost: 0, net: 0, nextChargeAmount: 6200 } });
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);

    const trialPlan = await plan('Trial', 1000, { trialDays: 14 });
    const trial = await s.post<{ id: string; trialEndsAt: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: trialPlan });
    const during = await s.post<{ subscription: { status: string; trialEndsAt: string; planId: string }; change: Figures; chargeId: null }>(
      `/api/v1/subscriptions/${trial.id}/change`,
      { planId: pro },
      200,
    );
    expect(during).toMatchObject({ chargeId: null, change: { credit: 0, cost: 0, net: 0, nextChargeAt: trial.trialEndsAt }, subscription: { status: 'trialing', planId: pro, trialEndsAt: trial.trialEndsAt } });
    await s.post(`/api/v1/subscriptions/${trial.id}/cancel`, { atPeriodEnd: false }, 200);

    // Before its first period (a start still ahead) there is nothing to prorate either.
    const ahead = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic, startAt: '2027-06-01T00:00:00.000Z' });
    const early = await s.post<{ change: Figures; chargeId: null }>(`/api/v1/subscriptions/${ahead.id}/change`, { quantity: 4 }, 200);
    expect(early).toMatchObject({ chargeId: null, change: { credit: 0, cost: 0, net: 0, nextChargeAt: '2027-06-01T00:00:00.000Z', nextChargeAmount: 12400 } });
    await s.post(`/api/v1/subscriptions/${ahead.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('moves to another interval now: the old period ends with its credit, a yearly period starts and is charged less it', async () => {
    await s.setClock('2027-07-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    await s.runBilling();
    // Jul 17: 15 of 31 days left, credit 3100 × 15/31 = 1500; the year costs 36500: 35000 charged.
    await s.setClock('2027-07-17T00:00:00.000Z');
    const before = await captured();
    const result = await s.post<{ subscription: Record<string, unknown>; change: Figures; chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: yearly }, 200);
    expect(result.change).toMatchObject({ credit: 1500, cost: 36500, net: 35000, nextChargeAt: '2028-07-17T00:00:00.000Z', nextChargeAmount: 36500 });
    expect(result.subscription).toMatchObject({ planId: yearly, currentPeriodStart: '2027-07-17T00:00:00.000Z', currentPeriodEnd: '2028-07-17T00:00:00.000Z' });
    await s.runBilling();
    expect(await captured()).toEqual([...before, 35000]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('settles a charge the credit balance covers whole with no provider call, and announces the change with its former plan', async () => {
    await s.setClock('2027-09-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: pro });
    await s.runBilling();
    // Sep 2, 29 of 30 days: credit 6200 × 29/30 = 5993 (5993.3), cost 3100 × 29/30 = 2997 (2996.7): 2996 to the balance.
    await s.setClock('2027-09-02T00:00:00.000Z');
    const down = await s.post<{ change: Figures }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: basic, effective: 'now' }, 200);
    expect(down.change).toMatchObject({ credit: 5993, cost: 2997, net: -2996, balanceAfter: 2996 });
    // Sep 3, 28 of 30 days: credit 3100 × 28/30 = 2893, cost 6200 × 28/30 = 5787: 2894, all of it from the balance.
    await s.setClock('2027-09-03T00:00:00.000Z');
    const invoicesBefore = (await s.sandboxRequests('createInvoice')).length;
    const up = await s.post<{ change: Figures; chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro }, 200);
    expect(up.change).toMatchObject({ credit: 2893, cost: 5787, net: 2894, balanceAfter: 102 });
    await s.runBilling();
    expect((await charges(sub.id)).find((c) => c.id === up.chargeId)).toMatchObject({ kind: 'proration', amount: 2894, paidFromBalance: 2894, status: 'succeeded' });
    expect((await s.sandboxRequests('createInvoice')).length).toBe(invoicesBefore);
    const succeeded = (await s.get<{ items: { data: { object: { id: string } } }[] }>('/api/v1/events?type=charge.succeeded&limit=100')).items;
    expect(succeeded.some((e) => e.data.object.id === up.chargeId)).toBe(true);
    const updated = (await s.get<{ items: { data: { object: { id: string; planId: string }; previous: Record<string, unknown> } }[] }>('/api/v1/events?type=subscription.updated&limit=100')).items;
    const announced = updated.filter((e) => e.data.object.id === sub.id && 'planId' in e.data.previous).map((e) => [e.data.previous.planId, e.data.object.planId]);
    expect(announced).toEqual([
      [basic, pro],
      [pro, basic],
    ]);
    const balance = await s.get<{ balances: { amount: number }[]; entries: { kind: string; amount: number; chargeId: string | null }[] }>(`/api/v1/customers/${customer.id}/balance`);
    expect(balance.balances).toEqual([{ currency: 'RUB', amount: 102 }]);
    expect(balance.entries.slice(0, 2)).toMatchObject([
      { kind: 'applied', amount: -2894, chargeId: up.chargeId },
      { kind: 'proration_credit', amount: 2996, chargeId: null },
    ]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });
});
