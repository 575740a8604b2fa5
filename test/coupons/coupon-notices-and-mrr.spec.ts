import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface NoticeEvent {
  type: string;
  data: { object: { id: string }; upcoming: { amount: number; currency: string; chargeAt: string } };
}
interface ReportItem {
  start: string;
  currency: string;
  mrrAtStart: number;
  mrr: number;
  movements: { new: number; expansion: number; contraction: number; churned: number; reactivated: number };
}

const DAY = 86_400_000;
const START = Date.parse('2027-01-01T00:00:00.000Z');

/** What a merchant hears before a coupon runs out, and what the revenue report counts while one is in force. */
describe('coupons: the discount_ending notice and MRR net of discounts', () => {
  let s: Scenario;
  let planId: string;

  const subscribe = async (couponCode?: string) => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, ...(couponCode ? { couponCode } : {}) })).id;
  };
  const events = async (type: string) => (await s.get<{ items: NoticeEvent[] }>(`/api/v1/events?type=${type}&limit=100`)).items;
  const report = async (from: string, to: string) =>
    (await s.api().get('/api/v1/reports/revenue').query({ from, to, interval: 'month', currency: 'RUB' }).expect(200)).body.items as ReportItem[];

  beforeAll(async () => {
    s = await Scenario.start({ BILLING_UPCOMING_DAYS: '7' });
    await s.setClock(new Date(START).toISOString());
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 1000 }] })).id;
    await s.post('/api/v1/coupons', { code: 'HALF2', name: 'Half for two months', percentOff: 50, duration: 'repeating', durationPeriods: 2 });
    await s.post('/api/v1/coupons', { code: 'THIRDOFF', name: 'A third off for good', percentOff: 33, duration: 'forever' });
  });

  afterAll(async () => {
    await s?.close();
  });

  it('announces the first renewal at full price once, 7 days ahead, and the discounted renewals at their discounted amount', async () => {
    const sub = await subscribe('HALF2');
    const forever = await subscribe('THIRDOFF');
    const plain = await subscribe();
    for (let day = 0; day <= 100; day += 1) {
      await s.setClock(new Date(START + day * DAY).toISOString());
      await s.runBilling();
    }
    const ending = await events('subscription.discount_ending');
    expect(ending.map((e) => [e.data.object.id, e.data.upcoming.chargeAt, e.data.upcoming.amount])).toEqual([[sub, '2027-03-01T00:00:00.000Z', 1000]]);
    const renewals = (await events('subscription.renewal_upcoming')).filter((e) => e.data.object.id === sub);
    expect(renewals.map((e) => [e.data.upcoming.chargeAt, e.data.upcoming.amount]).sort()).toEqual([
      ['2027-02-01T00:00:00.000Z', 500],
      ['2027-03-01T00:00:00.000Z', 1000],
      ['2027-04-01T00:00:00.000Z', 1000],
    ]);
    const charges = async (id: string) => (await s.get<{ items: { amount: number }[] }>(`/api/v1/subscriptions/${id}/charges`)).items.map((c) => c.amount).reverse();
    expect(await charges(sub)).toEqual([500, 500, 1000, 1000]);
    expect(await charges(forever)).toEqual([670, 670, 670, 670]);
    expect(await charges(plain)).toEqual([1000, 1000, 1000, 1000]);
  });

  it('counts MRR net of the coupon while it covers a coming period charge: its end is expansion', async () => {
    const [january, february, march] = await report('2027-01-01T00:00:00Z', '2027-04-01T00:00:00Z');
    // Made at the first boundary, so new in January: 500 (HALF2) + 670 (THIRDOFF) + 1000. HALF2 ended with the
    // charge of Feb 1 (its last discounted one; what happens at a boundary counts in the interval it starts): from
    // then on that subscription is worth its full 1000, an expansion of 500.
    expect(january).toMatchObject({ mrrAtStart: 0, mrr: 2170, movements: { new: 2170, expansion: 0, contraction: 0, churned: 0, reactivated: 0 } });
    expect(february).toMatchObject({ mrrAtStart: 2170, mrr: 2670, movements: { new: 0, expansion: 500, contraction: 0, churned: 0, reactivated: 0 } });
    expect(march).toMatchObject({ mrrAtStart: 2670, mrr: 2670, movements: { new: 0, expansion: 0, contraction: 0, churned: 0, reactivated: 0 } });
  });
});
