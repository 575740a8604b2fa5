import { DataSource } from 'typeorm';
import { SubscriptionLifecycleService } from '../../src/subscriptions/subscription-lifecycle.service';
import { SubscriptionNoticesService } from '../../src/subscriptions/subscription-notices.service';
import { CARDS } from '../support/test-cards';
import { Scenario } from './support/scenario';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface NoticeEvent {
  data: { object: { id: string; status: string }; upcoming: { chargeAt: string } };
}

/**
 * A renewal notice tells the payer the subscription goes on. None may go to a subscription whose last dunning attempt
 * the same pass declines (the final action ends it), nor to one another replica is ending at that moment.
 */
describe('renewal notices beside dunning', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start();
  });

  afterAll(async () => {
    await s.close();
  });

  /**
   * The notices of a renewal on `chargeAt` to any of `among` (the earlier tests' subscriptions renew too; BILLING_UPCOMING_DAYS
   * is 7: the window opens 7 days before).
   */
  const noticed = async (chargeAt: string, among: string[]) =>
    (await s.get<{ items: NoticeEvent[] }>('/api/v1/events?type=subscription.renewal_upcoming&limit=100')).items.filter(
      (e) => e.data.upcoming.chargeAt === chargeAt && among.includes(e.data.object.id),
    );
  const noticedIds = async (chargeAt: string, among: string[]) => (await noticed(chargeAt, among)).map((e) => e.data.object.id).sort();
  const statusOf = async (id: string) => (await s.get<{ status: string }>(`/api/v1/subscriptions/${id}`)).status;

  /**
   * Monthly subscriptions from `start`: one retry 25 days after the first decline, so the last attempt falls inside the
   * notice window of the next renewal (which opens 24 days after the start). `outcomes` are the scripted first payments.
   */
  const subscribeAll = async (start: string) => {
    await s.setClock(start);
    const plan = (finalAction: 'cancel' | 'unpaid') =>
      s.post<{ id: string }>('/api/v1/plans', {
        name: 'Monthly',
        product: 'Monthly',
        currency: 'RUB',
        interval: 'month',
        lines: [{ product: 'Monthly', price: 99000 }],
        dunning: { retryDelays: ['25d'], finalAction },
      });
    const canceling = await plan('cancel');
    const turningUnpaid = await plan('unpaid');
    const subscribe = async (planId: string, outcomes: string[]) => {
      const customer = await s.createCustomer();
      await s.bindCard(customer.id, CARDS.success);
      if (outcomes.length > 0) await s.scriptOutcomes(customer.providerCustomerId, outcomes);
      return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId })).id;
    };
    const subs = {
      // Both attempts declined: canceled by the pass of the retry.
      ending: [await subscribe(canceling.id, [INSUFFICIENT, INSUFFICIENT]), await subscribe(canceling.id, [INSUFFICIENT, INSUFFICIENT])],
      // Both declined under finalAction unpaid: the renewal will not happen either.
      unpaid: await subscribe(turningUnpaid.id, [INSUFFICIENT, INSUFFICIENT]),
      // The retry is paid: past_due before the pass, active after it; its renewal is announced.
      recovering: await subscribe(canceling.id, [INSUFFICIENT]),
      // Paid at once: active, no charge due when the window opens.
      paying: await subscribe(canceling.id, []),
    };
    await s.runBilling();
    for (const id of [...subs.ending, subs.unpaid, subs.recovering]) expect(await statusOf(id)).toBe('past_due');
    expect(await statusOf(subs.paying)).toBe('active');
    return { ...subs, all: [...subs.ending, subs.unpaid, subs.recovering, subs.paying] };
  };

  it('sends no renewal notice to a past_due subscription whose last dunning attempt the same pass declines', async () => {
    const subs = await subscribeAll('2027-01-01T00:00:00.000Z');

    // The retries are due on 2027-01-26, inside the window of the renewal on 2027-02-01: one pass works both.
    await s.setClock('2027-01-26T00:00:00.000Z');
    await s.runBilling();

    for (const id of subs.ending) expect(await statusOf(id)).toBe('canceled');
    expect(await statusOf(subs.unpaid)).toBe('unpaid');
    expect(await statusOf(subs.recovering)).toBe('active');
    // Decided once the pass settled its charges: the recovered subscription is told, as active, within the same pass.
    expect(await noticedIds('2027-02-01T00:00:00.000Z', subs.all)).toEqual([subs.recovering, subs.paying].sort());
    expect((await noticed('2027-02-01T00:00:00.000Z', subs.all)).map((e) => e.data.object.status)).toEqual(['active', 'active']);
  });

  it('holds the notice of a subscription whose dunning attempt is due but not worked yet (another replica, or the engine loop behind the timer)', async () => {
    const subs = await subscribeAll('2027-03-01T00:00:00.000Z');

    // Notices decided at the pass's instant while the due retries wait for a worker: only the subscription without one.
    const now = new Date('2027-03-26T00:00:00.000Z');
    await s.setClock(now.toISOString());
    await s.app.get(SubscriptionNoticesService).sendDue(now);
    expect(await noticedIds('2027-04-01T00:00:00.000Z', subs.all)).toEqual([subs.paying]);

    // The pass then works the retries: what they settle decides the notices held back.
    await s.runBilling();
    for (const id of subs.ending) expect(await statusOf(id)).toBe('canceled');
    expect(await statusOf(subs.unpaid)).toBe('unpaid');
    expect(await noticedIds('2027-04-01T00:00:00.000Z', subs.all)).toEqual([subs.recovering, subs.paying].sort());
  });

  it('sends no notice to a subscription another replica is canceling at that moment, nor after it committed', async () => {
    await s.setClock('2027-06-01T00:00:00.000Z');
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Monthly', product: 'Monthly', currency: 'RUB', interval: 'month', lines: [{ product: 'Monthly', price: 99000 }] });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id })).id;
    await s.runBilling();
    expect(await statusOf(sub)).toBe('active');

    const now = new Date('2027-06-26T00:00:00.000Z');
    await s.setClock(now.toISOString());
    const notices = s.app.get(SubscriptionNoticesService);
    // Another replica's dunning final action, its transaction not committed yet when the notices are decided.
    await s.app.get(DataSource).transaction(async (em) => {
      await s.app.get(SubscriptionLifecycleService).dunningExhausted(em, sub, { chargeId: sub, errorCode: INSUFFICIENT, finalAction: 'cancel' }, now);
      await notices.sendDue(now);
    });
    await notices.sendDue(now);
    expect(await statusOf(sub)).toBe('canceled');
    expect(await noticedIds('2027-07-01T00:00:00.000Z', [sub])).toEqual([]);
  });
});
