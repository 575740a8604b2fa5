import { DataSource } from 'typeorm';
import type { NoticeHold } from '../../src/subscriptions/notice-hold';
import { NoticeCursor, SubscriptionNoticesRepository } from '../../src/subscriptions/subscription-notices.repository';
import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

const DAY = 86_400_000;

/** The claim of due notices walked in small batches, with holds in front of the walk. */
describe('notice claims', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start();
  });

  afterAll(async () => {
    await s.close();
  });

  it('walks past held subscriptions batch by batch: every other one claimed once, each held one counted and left unclaimed', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Monthly', product: 'Monthly', currency: 'RUB', interval: 'month', lines: [{ product: 'Monthly', price: 1000 }] });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id })).id);
    await s.runBilling();
    // All five renew on 2027-02-01: the walk orders them by id, so the two held ones come first and fill whole batches.
    const sorted = [...ids].sort();
    const heldIds = sorted.slice(0, 2);
    const hold: NoticeHold = (params, subscriptionId) => `${subscriptionId} = ANY(${params.bind(heldIds)}::uuid[])`;

    const repository = s.app.get(SubscriptionNoticesRepository);
    const now = new Date(Date.parse('2027-02-01T00:00:00.000Z') - 3 * DAY);
    const walk = async () => {
      const claimed: string[] = [];
      let held = 0;
      let after: NoticeCursor | null = null;
      let batches = 0;
      do {
        const batch = await s.app.get(DataSource).transaction((em) => repository.claimDue(em, 'renewal_upcoming', now, 7 * DAY, 1, [hold], after));
        claimed.push(...batch.ids);
        held += batch.held;
        after = batch.next;
        batches++;
      } while (after && batches < 20);
      return { claimed, held, batches };
    };

    const first = await walk();
    expect(first.claimed.sort()).toEqual(sorted.slice(2));
    expect(first.held).toBe(2);
    // One batch per subscription, and one that finds the walk over.
    expect(first.batches).toBe(6);
    // Claimed notices are not claimed again; the held ones still wait.
    expect(await walk()).toEqual({ claimed: [], held: 2, batches: 3 });
  });
});
