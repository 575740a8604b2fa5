import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface Coupon {
  id: string;
  code: string;
  timesRedeemed: number;
  status: string;
}
interface Sub {
  id: string;
  discount: { couponId: string; code: string; percentOff: number | null; amountOff: number | null; periodsLeft: number | null } | null;
}

/** The admin API's section Coupons: making coupons, and applying, replacing and removing them on subscriptions. */
describe('coupons: the admin API', () => {
  let s: Scenario;
  let customer: { id: string };
  let planId: string;
  let usdPlanId: string;

  const coupon = (body: object) => s.post<Coupon>('/api/v1/coupons', { name: 'Promo', duration: 'once', percentOff: 10, ...body });
  const subscribe = (body: object = {}) => s.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId, ...body });

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-10T00:00:00.000Z');
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 1000 }] })).id;
    usdPlanId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro $', product: 'Pro', currency: 'USD', interval: 'month', lines: [{ product: 'Pro', price: 1000 }] })).id;
  });

  afterAll(async () => {
    await s?.close();
  });

  it('makes, lists, reads and archives coupons; codes are upper case and unique whatever the case', async () => {
    const made = await coupon({ code: 'spring-50', percentOff: 50, duration: 'repeating', durationPeriods: 3, maxRedemptions: 5 });
    expect(made).toMatchObject({ code: 'SPRING-50', percentOff: 50, amountOff: null, currency: null, duration: 'repeating', durationPeriods: 3, maxRedemptions: 5, timesRedeemed: 0, status: 'active' });
    expect(await s.get(`/api/v1/coupons/${made.id}`)).toEqual(made);
    expect((await s.get<{ items: Coupon[] }>('/api/v1/coupons')).items.map((c) => c.id)).toContain(made.id);
    const again = await s.api().post('/api/v1/coupons').send({ code: 'Spring-50', name: 'x', percentOff: 5, duration: 'once' });
    expect([again.status, again.body.field]).toEqual([400, 'code']);
    expect((await coupon({})).code).toMatch(/^[A-Z0-9]{10}$/);
    const archived = await s.post<Coupon>(`/api/v1/coupons/${made.id}/archive`, {}, 200);
    expect(archived.status).toBe('archived');
    expect((await s.get<{ items: Coupon[] }>('/api/v1/coupons?status=archived')).items.map((c) => c.id)).toEqual([made.id]);
  });

  it('refuses a malformed coupon with 400 naming the field', async () => {
    for (const [body, field] of [
      [{ percentOff: 0 }, 'percentOff'],
      [{ percentOff: 101 }, 'percentOff'],
      [{ percentOff: 10, amountOff: 100, currency: 'RUB' }, 'percentOff'],
      [{ percentOff: undefined }, 'percentOff'],
      [{ percentOff: undefined, amountOff: 100 }, 'currency'],
      [{ currency: 'RUB' }, 'currency'],
      [{ percentOff: undefined, amountOff: 0, currency: 'RUB' }, 'amountOff'],
      [{ duration: 'repeating' }, 'durationPeriods'],
      [{ duration: 'repeating', durationPeriods: 121 }, 'durationPeriods'],
      [{ duration: 'once', durationPeriods: 2 }, 'durationPeriods'],
      [{ duration: 'weekly' }, 'duration'],
      [{ code: 'a b' }, 'code'],
      [{ code: 'AB' }, 'code'],
      [{ appliesToPlans: ['3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e'] }, 'appliesToPlans'],
      [{ redeemBy: 'tomorrow' }, 'redeemBy'],
      [{ firstTimeOnly: 'yes' }, 'firstTimeOnly'],
      [{ maxRedemptions: 0 }, 'maxRedemptions'],
    ] as const) {
      const res = await s.api().post('/api/v1/coupons').send({ name: 'x', duration: 'once', percentOff: 10, ...body });
      expect({ body, status: res.status, field: res.body.field }).toEqual({ body, status: 400, field });
    }
  });

  it('applies a coupon on create, replaces it with another, removes it, and counts each redemption', async () => {
    const half = await coupon({ code: 'HALF3', percentOff: 50, duration: 'repeating', durationPeriods: 3 });
    const flat = await coupon({ code: 'FLAT200', percentOff: undefined, amountOff: 200, currency: 'RUB', duration: 'forever' });
    const made = await subscribe({ couponCode: 'half3' });
    expect(made.status).toBe(201);
    expect((made.body as Sub).discount).toEqual({ couponId: half.id, code: 'HALF3', percentOff: 50, amountOff: null, periodsLeft: 3 });
    const replaced = await s.post<Sub>(`/api/v1/subscriptions/${made.body.id}/discount`, { couponCode: 'FLAT200' }, 200);
    expect(replaced.discount).toEqual({ couponId: flat.id, code: 'FLAT200', percentOff: null, amountOff: 200, periodsLeft: null });
    const removed = await s.api().delete(`/api/v1/subscriptions/${made.body.id}/discount`);
    expect([removed.status, removed.body.discount]).toEqual([200, null]);
    expect((await s.get<Coupon>(`/api/v1/coupons/${half.id}`)).timesRedeemed).toBe(1);
    expect((await s.get<Coupon>(`/api/v1/coupons/${flat.id}`)).timesRedeemed).toBe(1);
    const trail = await s.get<{ items: { type: string }[] }>(`/api/v1/subscriptions/${made.body.id}/events`);
    expect(trail.items.map((e) => e.type).slice(0, 2)).toEqual(['discount_removed', 'discount_applied']);
  });

  it('answers 422 with the contract codes, and makes no subscription nor redemption then', async () => {
    const other = await s.post<{ id: string }>('/api/v1/plans', { name: 'Other', product: 'Other', currency: 'RUB', interval: 'month', lines: [{ product: 'Other', price: 500 }] });
    await coupon({ code: 'ONLYOTHER', appliesToPlans: [other.id] });
    await coupon({ code: 'DOLLARS', percentOff: undefined, amountOff: 100, currency: 'USD' });
    await coupon({ code: 'EXPIRED', redeemBy: '2027-01-09T00:00:00.000Z' });
    await coupon({ code: 'NEWCOMER', firstTimeOnly: true });
    const capped = await coupon({ code: 'ONLYONE', maxRedemptions: 1 });
    const old = await coupon({ code: 'OLD' });
    await s.post(`/api/v1/coupons/${old.id}/archive`, {}, 200);
    const before = (await s.get<{ items: unknown[] }>(`/api/v1/subscriptions?customerId=${customer.id}&limit=100`)).items.length;
    expect((await subscribe({ couponCode: 'ONLYONE' })).status).toBe(201);
    for (const [code, expected] of [
      ['NOSUCH', 'coupon_invalid'],
      ['OLD', 'coupon_invalid'],
      ['EXPIRED', 'coupon_invalid'],
      ['ONLYOTHER', 'coupon_not_applicable'],
      ['DOLLARS', 'coupon_not_applicable'],
      ['ONLYONE', 'coupon_exhausted'],
    ]) {
      const res = await subscribe({ couponCode: code });
      expect({ code, status: res.status, error: res.body.code }).toEqual({ code, status: 422, error: expected });
    }
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions?customerId=${customer.id}&limit=100`)).items.length).toBe(before + 1);
    expect((await s.get<Coupon>(`/api/v1/coupons/${capped.id}`)).timesRedeemed).toBe(1);
    // The amount-off coupon in dollars applies to the dollar plan.
    expect((await subscribe({ planId: usdPlanId, couponCode: 'DOLLARS' })).status).toBe(201);
    // A customer who has paid is no newcomer: the first period of a subscription is paid here.
    expect((await subscribe({ couponCode: 'NEWCOMER' })).status).toBe(201);
    await s.runBilling();
    const res = await subscribe({ couponCode: 'NEWCOMER' });
    expect([res.status, res.body.code]).toEqual([422, 'first_time_only']);
  });
});
