import { SubscriptionNoticesService } from '../../src/subscriptions/subscription-notices.service';
import { CARDS } from '../support/test-cards';
import { Scenario } from './support/scenario';

// A simulated year under the test clock, billing pass after billing pass: on a two-core machine busy with other work it
// can take longer than the suite's 300 s per test without anything being wrong.
jest.setTimeout(900_000);

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

  it('announces what the renewal will charge: the plan amount times the quantity, or the plan and quantity of a change waiting for it', async () => {
    // After the walk above: a fresh month of its own.
    const start = Date.parse('2028-03-01T00:00:00.000Z');
    await s.setClock(new Date(start).toISOString());
    const plan = (price: number) => s.post<{ id: string }>('/api/v1/plans', { name: 'Seats', product: 'Seats', currency: 'RUB', interval: 'month', lines: [{ product: 'Seats', price }] });
    const basic = await plan(99000);
    const pro = await plan(150050);
    const subscribe = async (quantity: number) => {
      const customer = await s.createCustomer();
      await s.bindCard(customer.id, CARDS.success);
      return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic.id, quantity })).id;
    };
    const seats = await subscribe(3);
    const changing = await subscribe(1);
    await s.runBilling();
    await s.post(`/api/v1/subscriptions/${changing}/change`, { planId: pro.id, quantity: 2, effective: 'period_end' }, 200);

    const now = new Date(start + 25 * DAY);
    await s.setClock(now.toISOString());
    await s.app.get(SubscriptionNoticesService).sendDue(now);
    const upcoming = async (id: string) => (await notices('subscription.renewal_upcoming')).filter((e) => e.data.object.id === id).map((e) => e.data.upcoming);
    expect(await upcoming(seats)).toEqual([{ amount: 297000, currency: 'RUB', chargeAt: '2028-04-01T00:00:00.000Z' }]);
    expect(await upcoming(changing)).toEqual([{ amount: 300100, currency: 'RUB', chargeAt: '2028-04-01T00:00:00.000Z' }]);

    // The renewal then charges exactly what was announced.
    await s.setClock('2028-04-01T00:00:00.000Z');
    await s.runBilling();
    const renewal = async (id: string) =>
      (await s.get<{ items: { amount: number; periodStart: string }[] }>(`/api/v1/subscriptions/${id}/charges`)).items.find((c) => c.periodStart === '2028-04-01T00:00:00.000Z')?.amount;
    expect([await renewal(seats), await renewal(changing)]).toEqual([297000, 300100]);
  });
});
