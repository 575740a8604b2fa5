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
  discountAmount: number;
  paidFromBalance: number;
  status: string;
  lines: Line[] | null;
}
interface InvoiceBody {
  amount: number;
  cart: { product: string; price: number; quantity: number; taxMode?: { rate: string } }[];
  metadata: { chargeId?: string };
}
interface Sub {
  id: string;
  discount: { code: string; periodsLeft: number | null } | null;
}

/** How a coupon shapes period charges: the amount, the cart the provider gets, the count of periods, and what it leaves alone. */
describe('coupons: billing', () => {
  let s: Scenario;
  let customer: { id: string; providerCustomerId: string };

  const plan = async (extra: object = {}) =>
    (await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 1000, taxRate: '22%' }], ...extra })).id;
  const coupon = (body: object) => s.post<{ id: string; code: string }>('/api/v1/coupons', { name: 'Promo', ...body });
  const subscribe = (planId: string, body: object = {}) => s.post<Sub>('/api/v1/subscriptions', { customerId: customer.id, planId, ...body });
  const chargesOf = async (id: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${id}/charges`)).items.reverse();
  const invoicesOf = async (chargeId: string) => (await s.sandboxRequests('createInvoice')).map((r) => r.body as InvoiceBody).filter((b) => b.metadata.chargeId === chargeId);
  const month = async () => {
    await s.post('/api/v1/test-clock', { advance: '31d' }, 200);
    await s.runBilling();
  };
  const cartSum = (cart: { price: number; quantity: number }[]) => cart.reduce((sum, l) => sum + l.price * l.quantity, 0);

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-10T00:00:00.000Z');
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('repeating: that many period charges are discounted (half away from zero), then full price; the cart is split so it sums exactly', async () => {
    const seats = await plan({ lines: [{ product: 'Seat', price: 999, taxRate: '22%' }] });
    await coupon({ code: 'THIRD2', percentOff: 33, duration: 'repeating', durationPeriods: 2 });
    const sub = await subscribe(seats, { quantity: 3, couponCode: 'THIRD2' });
    await s.runBilling();
    expect((await s.get<Sub>(`/api/v1/subscriptions/${sub.id}`)).discount).toMatchObject({ code: 'THIRD2', periodsLeft: 1 });
    await month();
    expect((await s.get<Sub>(`/api/v1/subscriptions/${sub.id}`)).discount).toBeNull();
    await month();
    // 2997 × 33 % = 989.01 → 989 off: 2008 over three seats does not divide (669, 669, 670).
    const charges = await chargesOf(sub.id);
    expect(charges.map((c) => [c.amount, c.discountAmount, c.status])).toEqual([
      [2008, 989, 'succeeded'],
      [2008, 989, 'succeeded'],
      [2997, 0, 'succeeded'],
    ]);
    const [invoice] = await invoicesOf(charges[0].id);
    expect(invoice.amount).toBe(2008);
    expect(cartSum(invoice.cart)).toBe(2008);
    expect(invoice.cart.map((l) => [l.price, l.quantity, l.taxMode?.rate])).toEqual([
      [669, 2, '22%'],
      [670, 1, '22%'],
    ]);
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);
    expect(captured).toEqual(expect.arrayContaining([2008, 2008, 2997]));
  });

  it('a charge discounted to 0 succeeds with no provider call; `once` covers the first period charged after a trial, not the trial', async () => {
    const trial = await plan({ trialDays: 7 });
    await coupon({ code: 'FREEMONTH', percentOff: 100, duration: 'once' });
    const sub = await subscribe(trial, { couponCode: 'FREEMONTH' });
    await s.runBilling();
    expect(await chargesOf(sub.id)).toEqual([]);
    expect((await s.get<Sub>(`/api/v1/subscriptions/${sub.id}`)).discount).toMatchObject({ periodsLeft: 1 });
    await s.post('/api/v1/test-clock', { advance: '7d' }, 200);
    await s.runBilling();
    const [free] = await chargesOf(sub.id);
    expect(free).toMatchObject({ kind: 'period', amount: 0, discountAmount: 1000, status: 'succeeded' });
    expect(await invoicesOf(free.id)).toEqual([]);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({ status: 'active', discount: null });
    await month();
    expect((await chargesOf(sub.id)).map((c) => [c.amount, c.discountAmount, c.status])).toEqual([
      [0, 1000, 'succeeded'],
      [1000, 0, 'succeeded'],
    ]);
  });

  it('an amount-off coupon is at most the amount, and the discount comes before the credit balance', async () => {
    const pro = await plan();
    const first = await subscribe(pro);
    await s.runBilling();
    const [paid] = await chargesOf(first.id);
    await s.post(`/api/v1/charges/${paid.id}/refunds`, { amount: 300, to: 'balance' }, 202);
    await s.post(`/api/v1/subscriptions/${first.id}/cancel`, { atPeriodEnd: false }, 200);
    await coupon({ code: 'MINUS400', amountOff: 400, currency: 'RUB', duration: 'forever' });
    await coupon({ code: 'MINUS5000', amountOff: 5000, currency: 'RUB', duration: 'forever' });
    const sub = await subscribe(pro, { couponCode: 'MINUS400' });
    await s.runBilling();
    const [charge] = await chargesOf(sub.id);
    // 1000 − 400 = 600, then 300 from the balance: the card pays 300.
    expect(charge).toMatchObject({ amount: 600, discountAmount: 400, paidFromBalance: 300, status: 'succeeded' });
    const [invoice] = await invoicesOf(charge.id);
    expect([invoice.amount, cartSum(invoice.cart)]).toEqual([300, 300]);
    const big = await subscribe(pro, { couponCode: 'MINUS5000' });
    await s.runBilling();
    expect((await chargesOf(big.id)).map((c) => [c.amount, c.discountAmount, c.status])).toEqual([[0, 1000, 'succeeded']]);
    expect((await s.get<Sub>(`/api/v1/subscriptions/${big.id}`)).discount).toMatchObject({ code: 'MINUS5000', periodsLeft: null });
    for (const id of [sub.id, big.id]) await s.post(`/api/v1/subscriptions/${id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('proration is on discounted amounts, and a change of plan keeps the coupon only where it still applies', async () => {
    const small = await plan();
    const large = await plan({ lines: [{ product: 'Pro XL', price: 3000, taxRate: '22%' }] });
    const other = await plan({ lines: [{ product: 'Other', price: 5000, taxRate: '22%' }] });
    await coupon({ code: 'HALFPRO', percentOff: 50, duration: 'forever', appliesToPlans: [small, large] });
    const sub = await subscribe(small, { couponCode: 'HALFPRO' });
    await s.runBilling();
    // Half way through the month, the upgrade costs half of (1500 − 500) at the discount, not half of (3000 − 1000).
    await s.post('/api/v1/test-clock', { advance: '15d' }, 200);
    const upgraded = await s.post<{ change: { net: number; cost: number; credit: number }; subscription: Sub }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: large, effective: 'now' }, 200);
    expect(upgraded.subscription.discount).toMatchObject({ code: 'HALFPRO' });
    expect(upgraded.change.cost - upgraded.change.credit).toBe(upgraded.change.net);
    expect(upgraded.change.net).toBeGreaterThan(400);
    expect(upgraded.change.net).toBeLessThan(600);
    await s.runBilling();
    const moved = await s.post<{ subscription: Sub }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: other, effective: 'now' }, 200);
    expect(moved.subscription.discount).toBeNull();
  });

  it('a pause keeps the coupon and counts none of its periods: the discount goes on after the resume', async () => {
    const pro = await plan();
    await coupon({ code: 'HALFTWO', percentOff: 50, duration: 'repeating', durationPeriods: 2 });
    const sub = await subscribe(pro, { couponCode: 'HALFTWO' });
    await s.runBilling();
    await s.post(`/api/v1/subscriptions/${sub.id}/pause`, {}, 200);
    await month();
    await month();
    expect((await s.get<Sub>(`/api/v1/subscriptions/${sub.id}`)).discount).toMatchObject({ code: 'HALFTWO', periodsLeft: 1 });
    await s.post(`/api/v1/subscriptions/${sub.id}/resume`, {}, 200);
    await month();
    await month();
    expect((await chargesOf(sub.id)).map((c) => [c.amount, c.discountAmount, c.status])).toEqual([
      [500, 500, 'succeeded'],
      [500, 500, 'succeeded'],
      [1000, 0, 'succeeded'],
    ]);
    expect((await s.get<Sub>(`/api/v1/subscriptions/${sub.id}`)).discount).toBeNull();
  });
});
