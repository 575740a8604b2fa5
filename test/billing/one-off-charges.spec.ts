import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface Line {
  product: string;
  price: number;
  quantity: number;
  taxRate?: string;
}
interface Charge {
  id: string;
  kind: string;
  subscriptionId: string | null;
  customerId: string;
  amount: number;
  paidFromBalance: number;
  status: string;
  lastErrorCode: string | null;
  invoiceId: string | null;
  lines: Line[] | null;
  reference: string | null;
  description: string | null;
  periodStart: string | null;
  nextAttemptAt: string | null;
  attempts: { number: number; status: string; errorCode: string | null }[];
}
interface InvoiceBody {
  amount: number;
  currency: string;
  product: string;
  description?: string;
  externalID: string;
  cart: { product: string; price: number; quantity: number; taxMode?: { rate: string } }[];
  metadata: Record<string, unknown>;
}

/**
 * One-off charges over the admin API against the sandbox: `POST /customers/{id}/charges` with `when: now` makes a
 * charge of kind one_off on the card the customer bound, at once, through the same engine as every charge.
 */
describe('one-off charges now', () => {
  let s: Scenario;
  let planId: string;
  let customer: { id: string; providerCustomerId: string };

  const lines = [
    { product: 'Onboarding session', price: 15000, taxRate: '22%' },
    { product: 'Printed manual', price: 700, quantity: 3, taxRate: '10/110' },
  ];
  const invoices = async () => (await s.sandboxRequests('createInvoice')).map((r) => r.body as InvoiceBody);
  const invoiceOf = async (chargeId: string) => (await invoices()).filter((i) => i.metadata.chargeId === chargeId);
  const capturedOf = async (providerCustomerId: string) =>
    (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === providerCustomerId).map((p) => p.amount);
  const eventsOf = async (chargeId: string) =>
    (await s.get<{ items: { type: string; data: { object: { id: string } } }[] }>('/api/v1/events?limit=200')).items
      .filter((e) => e.data.object.id === chargeId)
      .map((e) => e.type)
      .reverse();

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-03-01T09:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 3100, taxRate: '22%' }] })).id;
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('charges the lines on the bound card at once: 202, one invoice with every line and rate, one capture, charge.succeeded', async () => {
    const res = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ lines, currency: 'RUB', description: 'March onboarding' });
    expect(res.status).toBe(202);
    const charge = res.body as Charge;
    expect(charge).toMatchObject({
      kind: 'one_off',
      subscriptionId: null,
      customerId: customer.id,
      amount: 17100,
      paidFromBalance: 0,
      status: 'succeeded',
      periodStart: null,
      description: 'March onboarding',
      reference: null,
      lines: [
        { product: 'Onboarding session', price: 15000, quantity: 1, taxRate: '22%' },
        { product: 'Printed manual', price: 700, quantity: 3, taxRate: '10/110' },
      ],
    });
    expect(charge.attempts).toEqual([expect.objectContaining({ number: 1, status: 'succeeded' })]);
    const [invoice, ...more] = await invoiceOf(charge.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({
      amount: 17100,
      currency: 'RUB',
      product: 'Onboarding session and 1 more',
      description: 'March onboarding',
      cart: [
        { product: 'Onboarding session', price: 15000, quantity: 1, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
        { product: 'Printed manual', price: 700, quantity: 3, taxMode: { type: 'InvoiceLineTaxVAT', rate: '10/110' } },
      ],
      metadata: { chargeId: charge.id, customerId: customer.id, kind: 'one_off' },
    });
    expect(await capturedOf(customer.providerCustomerId)).toEqual([17100]);
    expect(await eventsOf(charge.id)).toEqual(['charge.succeeded']);
    expect(await s.get(`/api/v1/charges/${charge.id}`)).toEqual(charge);
  });

  it('belongs to a subscription when it names one: listed with its charges, in its trail, its status untouched', async () => {
    const sub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    const res = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ lines: [{ product: 'Extra seat, March', price: 1000 }], currency: 'RUB', subscriptionId: sub.id });
    expect([res.status, res.body.status, res.body.subscriptionId]).toEqual([202, 'succeeded', sub.id]);
    const charges = (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
    expect(charges.map((c) => [c.kind, c.amount, c.status])).toEqual([
      ['one_off', 1000, 'succeeded'],
      ['period', 3100, 'succeeded'],
    ]);
    const trail = (await s.get<{ items: { type: string; data: Record<string, unknown> }[] }>(`/api/v1/subscriptions/${sub.id}/events`)).items;
    expect(trail[0]).toMatchObject({ type: 'charge_succeeded', data: { chargeId: res.body.id, kind: 'one_off', amount: 1000 } });
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active', currentPeriodStart: '2027-03-01T09:00:00.000Z' });
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('ends failed with the decline code on a decline: no dunning, no retry scheduled, the subscription left as it was', async () => {
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    await s.scriptOutcomes(customer.providerCustomerId, ['authorization_failed:insufficient_funds']);
    const res = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ lines: [{ product: 'Late fee', price: 500 }], currency: 'RUB', subscriptionId: sub.id });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'failed', lastErrorCode: 'authorization_failed:insufficient_funds', nextAttemptAt: null, waitingForNewCard: false });
    expect(await eventsOf(res.body.id)).toEqual(['charge.declined', 'charge.failed']);
    expect(await s.get(`/api/v1/charges/${res.body.id}/dunning`)).toMatchObject({ retryDelays: [], finalAction: 'none', maxAttempts: 1, nextAttemptAt: null, givesUpAt: null });
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active' });
    // Nothing more happens to it on later passes, whatever the clock does.
    await s.post('/api/v1/test-clock', { advance: '3d' }, 200);
    await s.runBilling();
    expect(await s.get(`/api/v1/charges/${res.body.id}`)).toMatchObject({ status: 'failed', attempts: [expect.objectContaining({ status: 'declined' })] });
    // An operator may retry it by hand: the same invoice, a second payment.
    const retried = await s.post<Charge>(`/api/v1/charges/${res.body.id}/retry`, {}, 200);
    expect(retried).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ status: 'declined' }), expect.objectContaining({ number: 2, status: 'succeeded' })] });
    expect(await invoiceOf(res.body.id)).toHaveLength(1);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active' });
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('takes the credit balance first, off the lines in proportion: the cart sums to what the card pays and keeps each rate', async () => {
    const payer = await s.createCustomer();
    await s.bindCard(payer.id, CARDS.success);
    const pro = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 6200 }] })).id;
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: payer.id, planId: pro });
    await s.runBilling();
    // Down to Basic now, on the period's 16th of 31 days: 6200 × 16/31 − 3100 × 16/31 = 1600 credited.
    await s.post('/api/v1/test-clock', { advance: '15d' }, 200);
    await s.post(`/api/v1/subscriptions/${sub.id}/change`, { planId, effective: 'now' }, 200);
    const balance = await s.get<{ balances: { amount: number }[] }>(`/api/v1/customers/${payer.id}/balance`);
    const credit = balance.balances[0].amount;
    expect(credit).toBeGreaterThan(0);
    const res = await s.api().post(`/api/v1/customers/${payer.id}/charges`).send({ lines, currency: 'RUB' });
    expect(res.body).toMatchObject({ status: 'succeeded', amount: 17100, paidFromBalance: credit });
    const [invoice] = await invoiceOf(res.body.id);
    expect(invoice.amount).toBe(17100 - credit);
    expect(invoice.cart.reduce((sum, l) => sum + l.price * l.quantity, 0)).toBe(17100 - credit);
    expect(invoice.cart.map((l) => l.taxMode?.rate)).toEqual(['22%', '10/110']);
    expect(invoice.cart.every((l) => / from credit balance$/.test(l.product))).toBe(true);
    expect(await capturedOf(payer.providerCustomerId)).toContain(17100 - credit);
  });

  it('refuses bad input with a 4xx naming the field, and charges nothing', async () => {
    const ok = { lines: [{ product: 'Setup call', price: 5000 }], currency: 'RUB' };
    const before = (await invoices()).length;
    for (const [body, field] of [
      [{}, 'lines'],
      [{ ...ok, lines: [] }, 'lines'],
      [{ ...ok, lines: [{ product: 'x', price: 0 }] }, 'lines.0.price'],
      [{ ...ok, lines: [{ product: 'x', price: 1.5 }] }, 'lines.0.price'],
      [{ ...ok, lines: [{ product: '', price: 1 }] }, 'lines.0.product'],
      [{ ...ok, lines: [{ product: 'x', price: 1, quantity: 0 }] }, 'lines.0.quantity'],
      [{ ...ok, lines: [{ product: 'x', price: 1, taxRate: '13' }] }, 'lines.0.taxRate'],
      [{ ...ok, lines: [{ product: 'x', price: 1 }, { product: 'y', price: 1, taxRate: '20%' }] }, 'lines.1.taxRate'],
      [{ ...ok, lines: [{ product: 'x', price: 600_000_000_000_000, quantity: 2 }] }, 'lines'],
      [{ ...ok, lines: Array.from({ length: 101 }, () => ({ product: 'x', price: 1 })) }, 'lines'],
      [{ ...ok, currency: 'rub' }, 'currency'],
      [{ ...ok, when: 'later' }, 'when'],
      [{ ...ok, when: null }, 'when'],
      [{ ...ok, when: 'next_renewal' }, 'subscriptionId'],
      [{ ...ok, subscriptionId: 'not-a-uuid' }, 'subscriptionId'],
      [{ ...ok, reference: 'has space' }, 'reference'],
      [{ ...ok, description: 'x'.repeat(1001) }, 'description'],
      [{ ...ok, amount: 5000 }, 'amount'],
    ] as const) {
      const res = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send(body);
      expect({ body, status: res.status, field: res.body.field }).toEqual({ body, status: 400, field });
    }
    const unknown = await s.api().post('/api/v1/customers/00000000-0000-4000-8000-000000000000/charges').send(ok);
    expect(unknown.status).toBe(404);
    const stranger = await s.createCustomer();
    await s.bindCard(stranger.id, CARDS.success);
    const theirs = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: stranger.id, planId });
    const notMine = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ ...ok, subscriptionId: theirs.id });
    expect([notMine.status, notMine.body.field]).toEqual([404, 'subscriptionId']);
    const dollars = await s.api().post(`/api/v1/customers/${stranger.id}/charges`).send({ ...ok, currency: 'USD', subscriptionId: theirs.id });
    expect([dollars.status, dollars.body.code, dollars.body.field]).toEqual([422, 'business_rule', 'currency']);
    await s.post(`/api/v1/subscriptions/${theirs.id}/cancel`, { atPeriodEnd: false }, 200);
    for (const when of ['now', 'next_renewal']) {
      const ended = await s.api().post(`/api/v1/customers/${stranger.id}/charges`).send({ ...ok, when, subscriptionId: theirs.id });
      expect([when, ended.status, ended.body.code, ended.body.field]).toEqual([when, 409, 'state_conflict', 'subscriptionId']);
    }
    const unready = await s.createCustomer();
    const noCard = await s.api().post(`/api/v1/customers/${unready.id}/charges`).send(ok);
    expect([noCard.status, noCard.body.code]).toEqual([409, 'customer_not_ready']);
    expect((await invoices()).length).toBe(before);
    expect((await s.get<{ items: Charge[] }>(`/api/v1/charges?customerId=${unready.id}`)).items).toEqual([]);
  });

  it('answers a repeat with the same reference and body with the same charge (200), and refuses the reference for another body (409)', async () => {
    const body = { lines: [{ product: 'Consulting, 1 h', price: 9000, taxRate: '22%' }], currency: 'RUB', reference: 'order-2027-0042' };
    const first = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send(body);
    expect([first.status, first.body.status, first.body.reference]).toEqual([202, 'succeeded', 'order-2027-0042']);
    const again = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send(body);
    expect([again.status, again.body]).toEqual([200, first.body]);
    const [invoice, ...more] = await invoiceOf(first.body.id);
    expect(more).toEqual([]);
    // The invoice's identity derives from the reference alone: a restored database meets the same invoice.
    expect(invoice.externalID).toMatch(/^invr[A-Za-z0-9_-]{30}$/);
    for (const other of [{ ...body, lines: [{ ...body.lines[0], price: 9001 }] }, { ...body, description: 'another' }]) {
      const taken = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send(other);
      expect([taken.status, taken.body.code, taken.body.field, taken.body.chargeId]).toEqual([409, 'charge_reference_taken', 'reference', first.body.id]);
    }
    expect((await capturedOf(customer.providerCustomerId)).filter((amount) => amount === 9000)).toHaveLength(1);
  });
});
