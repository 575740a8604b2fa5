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
  amount: number;
  status: string;
  lines: Line[] | null;
  periodStart: string | null;
  waitingForNewCard: boolean;
  invoiceId: string | null;
}
interface InvoiceBody {
  amount: number;
  cart: { product: string; price: number; quantity: number; taxMode?: { rate: string } }[];
  metadata: { chargeId?: string };
}

/**
 * A plan's setup fee is charged once per subscription: an extra cart line of its first paid period's invoice, or,
 * with a trial, a charge of kind one_off at the subscription's start.
 */
describe('plan setup fees', () => {
  let s: Scenario;
  let customer: { id: string; providerCustomerId: string };

  const plan = async (extra: object) =>
    s.post<{ id: string; setupFee: number | null; setupFeeTaxRate: string | null }>('/api/v1/plans', {
      name: 'Studio',
      product: 'Studio',
      currency: 'RUB',
      interval: 'month',
      lines: [{ product: 'Studio', price: 4000, taxRate: '22%' }],
      ...extra,
    });
  const chargesOf = async (subscriptionId: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items.reverse();
  const invoiceOf = async (chargeId: string) => (await s.sandboxRequests('createInvoice')).map((r) => r.body as InvoiceBody).filter((b) => b.metadata.chargeId === chargeId);
  const capturedOf = async (payer: { providerCustomerId: string }) =>
    (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === payer.providerCustomerId).map((p) => p.amount);
  const setupLine = { product: 'Studio, setup fee', price: 9900, quantity: 1, taxRate: '22%' };

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-10T00:00:00.000Z');
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('is shown on the plan, and refused with 400 naming the field when it is malformed', async () => {
    const made = await plan({ setupFee: 9900, setupFeeTaxRate: '22%' });
    expect(made).toMatchObject({ setupFee: 9900, setupFeeTaxRate: '22%', amount: 4000 });
    expect(await plan({})).toMatchObject({ setupFee: null, setupFeeTaxRate: null });
    for (const [extra, field] of [
      [{ setupFee: 0 }, 'setupFee'],
      [{ setupFee: 1.5 }, 'setupFee'],
      [{ setupFee: '9900' }, 'setupFee'],
      [{ setupFee: 999_999_999_999_000 }, 'setupFee'],
      [{ setupFeeTaxRate: '22%' }, 'setupFeeTaxRate'],
      [{ setupFee: 100, setupFeeTaxRate: '22' }, 'setupFeeTaxRate'],
      [{ setupFee: 100, setupFeeTaxRate: '20%' }, 'setupFeeTaxRate'],
    ] as const) {
      const res = await s.api().post('/api/v1/plans').send({ name: 'x', product: 'x', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 4000 }], ...extra });
      expect({ extra, status: res.status, field: res.body.field }).toEqual({ extra, status: 400, field });
    }
    const patched = await s.api().patch(`/api/v1/plans/${made.id}`).send({ setupFee: 1 });
    expect([patched.status, patched.body.field]).toEqual([400, 'setupFee']);
  });

  it('goes on the first paid charge only, once per subscription whatever its seats, and not again on a change of plan', async () => {
    const studio = await plan({ setupFee: 9900, setupFeeTaxRate: '22%' });
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: studio.id, quantity: 3 });
    expect((await s.get<{ items: { source: string; amount: number; status: string }[] }>(`/api/v1/subscriptions/${sub.id}/pending-items`)).items).toEqual([
      expect.objectContaining({ source: 'setup_fee', amount: 9900, status: 'pending' }),
    ]);
    await s.runBilling();
    const [first] = await chargesOf(sub.id);
    expect(first).toMatchObject({ kind: 'period', amount: 12000 + 9900, status: 'succeeded', lines: [{ product: 'Studio', price: 4000, quantity: 3, taxRate: '22%' }, setupLine] });
    expect((await invoiceOf(first.id))[0].cart.map((l) => [l.product, l.price, l.quantity, l.taxMode?.rate])).toEqual([
      ['Studio', 4000, 3, '22%'],
      ['Studio, setup fee', 9900, 1, '22%'],
    ]);
    await s.post('/api/v1/test-clock', { advance: '31d' }, 200);
    await s.runBilling();
    // Changing to another plan with a fee of its own charges no second fee.
    const bigger = await plan({ setupFee: 5000, lines: [{ product: 'Studio XL', price: 8000 }] });
    await s.post(`/api/v1/subscriptions/${sub.id}/change`, { planId: bigger.id, effective: 'period_end' }, 200);
    await s.post('/api/v1/test-clock', { advance: '31d' }, 200);
    await s.runBilling();
    expect((await chargesOf(sub.id)).map((c) => [c.kind, c.amount, c.status])).toEqual([
      ['period', 21900, 'succeeded'],
      ['period', 12000, 'succeeded'],
      ['period', 24000, 'succeeded'],
    ]);
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/pending-items`)).items).toHaveLength(1);
    expect(await capturedOf(customer)).toEqual(expect.arrayContaining([21900, 12000, 24000]));
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('with a trial: a one-off at the start (the trial stays free), and the first paid period without it', async () => {
    const trial = await plan({ setupFee: 9900, setupFeeTaxRate: '22%', trialDays: 14 });
    const sub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: trial.id });
    expect(sub.status).toBe('trialing');
    await s.runBilling();
    const [fee] = await chargesOf(sub.id);
    expect(fee).toMatchObject({ kind: 'one_off', amount: 9900, status: 'succeeded', periodStart: null, lines: [setupLine] });
    expect(await invoiceOf(fee.id)).toHaveLength(1);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'trialing' });
    await s.post('/api/v1/test-clock', { advance: '14d' }, 200);
    await s.runBilling();
    expect((await chargesOf(sub.id)).map((c) => [c.kind, c.amount, c.lines])).toEqual([
      ['one_off', 9900, [setupLine]],
      ['period', 4000, null],
    ]);
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/pending-items`)).items).toEqual([]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('with a trial and no card yet: the fee waits for the card, then is charged once; a subscription ended first is never charged it', async () => {
    const trial = await plan({ setupFee: 9900, trialDays: 7 });
    const payer = await s.createCustomer();
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: payer.id, planId: trial.id });
    await s.runBilling();
    const [waiting] = await chargesOf(sub.id);
    expect(waiting).toMatchObject({ kind: 'one_off', status: 'pending', waitingForNewCard: true, invoiceId: null });
    await s.runBilling();
    expect(await capturedOf(payer)).toEqual([]);
    // A retry by hand finds no card either: the charge still waits, nothing is sent.
    expect(await s.post(`/api/v1/charges/${waiting.id}/retry`, {}, 200)).toMatchObject({ status: 'pending', waitingForNewCard: true, attempts: [] });
    expect(await invoiceOf(waiting.id)).toEqual([]);
    await s.bindCard(payer.id, CARDS.success);
    await s.runBilling();
    expect(await s.get(`/api/v1/charges/${waiting.id}`)).toMatchObject({ status: 'succeeded', waitingForNewCard: false });
    expect(await capturedOf(payer)).toEqual([9900]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);

    // Ended before its start (trial) or before its first charge (no card): no fee, ever.
    const ahead = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: payer.id, planId: trial.id, startAt: '2027-06-01T00:00:00.000Z' });
    const noTrial = await plan({ setupFee: 9900 });
    const unready = await s.createCustomer();
    const incomplete = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId: unready.id, planId: noTrial.id });
    expect(incomplete.status).toBe('incomplete');
    await s.post(`/api/v1/subscriptions/${ahead.id}/cancel`, { atPeriodEnd: false }, 200);
    await s.post(`/api/v1/subscriptions/${incomplete.id}/cancel`, { atPeriodEnd: false }, 200);
    await s.bindCard(unready.id, CARDS.success);
    await s.setClock('2027-06-02T00:00:00.000Z');
    await s.runBilling();
    expect((await chargesOf(ahead.id)).map((c) => [c.kind, c.status])).toEqual([['one_off', 'canceled']]);
    expect((await s.get<{ items: { status: string }[] }>(`/api/v1/subscriptions/${incomplete.id}/pending-items`)).items.map((i) => i.status)).toEqual(['canceled']);
    expect(await capturedOf(payer)).toEqual([9900]);
    expect(await capturedOf(unready)).toEqual([]);
  });

  it("a first charge with the setup fee and a pending item, part paid by the credit balance: the cart sums to what the card pays, every rate kept", async () => {
    const payer = await s.createCustomer();
    await s.bindCard(payer.id, CARDS.success);
    // A credit balance: down from Pro to Basic now, on the period's 16th of 31 days.
    const pro = await plan({ name: 'Pro', product: 'Pro', lines: [{ product: 'Pro', price: 6200 }] });
    const basic = await plan({ name: 'Basic', product: 'Basic', lines: [{ product: 'Basic', price: 3100 }] });
    const old = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: payer.id, planId: pro.id });
    await s.runBilling();
    await s.post('/api/v1/test-clock', { advance: '15d' }, 200);
    await s.post(`/api/v1/subscriptions/${old.id}/change`, { planId: basic.id, effective: 'now' }, 200);
    const credit = (await s.get<{ balances: { amount: number }[] }>(`/api/v1/customers/${payer.id}/balance`)).balances[0].amount;
    expect(credit).toBeGreaterThan(0);
    await s.post(`/api/v1/subscriptions/${old.id}/cancel`, { atPeriodEnd: false }, 200);

    const studio = await plan({ setupFee: 9900, setupFeeTaxRate: '22%', lines: [{ product: 'Studio', price: 4000, quantity: 2, taxRate: '22%' }, { product: 'Hosting', price: 777, taxRate: '5%' }] });
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: payer.id, planId: studio.id });
    const item = await s.api().post(`/api/v1/customers/${payer.id}/charges`).send({ lines: [{ product: 'Training', price: 2501, quantity: 3, taxRate: '7%' }], currency: 'RUB', when: 'next_renewal', subscriptionId: sub.id });
    expect(item.status).toBe(201);
    await s.runBilling();
    const [first] = await chargesOf(sub.id);
    const amount = 8777 + 9900 + 7503;
    expect(first).toMatchObject({ amount, paidFromBalance: credit, status: 'succeeded' });
    const [invoice] = await invoiceOf(first.id);
    expect(invoice.amount).toBe(amount - credit);
    expect(invoice.cart.reduce((sum, l) => sum + l.price * l.quantity, 0)).toBe(amount - credit);
    expect(invoice.cart.map((l) => l.taxMode?.rate)).toEqual(['22%', '5%', '22%', '7%']);
    expect(invoice.cart.every((l) => l.price >= 1 && l.quantity >= 1)).toBe(true);
    // What the balance paid of each line, as its product says, adds up to the credit.
    const shares = invoice.cart.map((l) => Number(/, (\d+) from credit balance$/.exec(l.product)?.[1] ?? 0));
    expect(shares.reduce((a, b) => a + b, 0)).toBe(credit);
    expect(await capturedOf(payer)).toEqual(expect.arrayContaining([amount - credit]));
  });
});
