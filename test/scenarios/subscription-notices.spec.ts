import { SubscriptionNoticesService } from '../../src/subscriptions/subscription-notices.service';
import { CARDS } from '../support/test-cards';
import { Scenario } from './support/scenario';

interface NoticeEvent {
  type: string;
  data: { object: { id: string; status: string }; upcoming: { amount: number; currency: string; chargeAt: string } };
}

const DAY = 86_400_000;
const START = Date.parse('2027-01-01T00:00:00.000Z');

describe('notices before money moves', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock(new Date(START).toISOString());
  });

  afterAll(async () => {
    await s.close();
  });

  const notices = async (type: string) => (await s.get<{ items: NoticeEvent[] }>(`/api/v1/events?type=${type}&limit=100`)).items;

  it('sends each renewal and trial notice once over 400 days, racing replicas included, and none for subscriptions that will not renew', async () => {
    const plan = (price: number, trialDays = 0) =>
      s.post<{ id: string }>('/api/v1/plans', { name: 'Plan', product: 'Plan', currency: 'RUB', interval: 'month', trialDays, lines: [{ product: 'Plan', price }] });
    const monthly = await plan(99000);
    const trial = await plan(50000, 14);
    const subscribe = async (planId: string) => {
      const customer = await s.createCustomer();
      await s.bindCard(customer.id, CARDS.success);
      return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: planId })).id;
    };
    const renewing = await subscribe(monthly.id);
    const trialing = await subscribe(trial.id);
    const paused = await subscribe(monthly.id);
    const canceled = await subscribe(monthly.id);
    const endingAtPeriodEnd = await subscribe(monthly.id);
    await s.runBilling();
    await s.post(`/api/v1/subscriptions/${paused}/pause`, {}, 200);
    await s.post(`/api/v1/subscriptions/${canceled}/cancel`, { atPeriodEnd: false }, 200);
    await s.post(`/api/v1/subscriptions/${endingAtPeriodEnd}/cancel`, { atPeriodEnd: true }, 200);

    const service = s.app.get(SubscriptionNoticesService);
    for (let day = 1; day <= 400; day += 2) {
      const now = new Date(START + day * DAY);
      await s.setClock(now.toISOString());
      await s.runBilling();
      // Two replicas sending at the same moment.
      if (day % 20 === 1) await Promise.all([service.sendDue(now), service.sendDue(now)]);
    }

    const renewals = await notices('subscription.renewal_upcoming');
    const trials = await notices('subscription.trial_ending');
    const key = (e: NoticeEvent) => `${e.data.object.id} ${e.data.upcoming.chargeAt}`;
    expect(new Set(renewals.map(key)).size).toBe(renewals.length);
    // 2027-02-01 … 2028-02-01: thirteen renewals, each announced once.
    expect(renewals.filter((e) => e.data.object.id === renewing).map((e) => e.data.upcoming.chargeAt).sort()).toEqual(
      Array.from({ length: 13 }, (_, k) => new Date(Date.UTC(2027, 1 + k, 1)).toISOString()),
    );
    // The trial ends 2027-01-15; renewals follow on the 15th up to 2028-01-15.
    expect(renewals.filter((e) => e.data.object.id === trialing)).toHaveLength(12);
    expect(trials.map((e) => [e.data.object.id, e.data.upcoming.chargeAt, e.data.upcoming.amount])).toEqual([[trialing, '2027-01-15T00:00:00.000Z', 50000]]);
    expect(renewals.find((e) => e.data.object.id === renewing)?.data).toMatchObject({ object: { status: 'active' }, upcoming: { amount: 99000, currency: 'RUB' } });
    for (const silent of [paused, canceled, endingAtPeriodEnd]) expect([...renewals, ...trials].filter((e) => e.data.object.id === silent)).toEqual([]);
  });
});
