import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { Scenario } from './support/scenario';

interface MigrationView {
  id: string;
  status: string;
  counts: { scheduled: number; skipped: number };
}
interface SubscriptionView {
  id: string;
  status: string;
  planId: string;
  pendingChange: { planId: string; effectiveAt: string; source?: string; migrationId?: string } | null;
}
interface EventView {
  type: string;
  data: { object: { id: string }; change?: Record<string, unknown>; upcoming?: { amount: number } };
}

/**
 * Repricing existing subscribers: a plan whose VAT rate left the law (20 %) moves its subscribers to a plan at 22 %,
 * each at its first renewal at least the notice ahead, each told once; renewals before that stay at the old price.
 */
describe('a plan migration', () => {
  let s: Scenario;
  let oldPlan: string;
  let newPlan: string;

  beforeEach(async () => {
    s = await Scenario.start({ BILLING_TAX_RATES: '20%,22%', BILLING_UPCOMING_DAYS: '3' });
    await s.setClock('2027-01-05T10:00:00.000Z');
    const plan = (rate: string, price: number) =>
      s.post<{ id: string }>('/api/v1/plans', { name: `Seat ${rate}`, product: 'Seat', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price, taxRate: rate }] });
    oldPlan = (await plan('20%', 100000)).id;
    newPlan = (await plan('22%', 101700)).id;
  });

  afterEach(async () => {
    await s.close();
  });

  async function subscribe(planId: string): Promise<string> {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    return (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId })).id;
  }
  const subscription = (id: string) => s.get<SubscriptionView>(`/api/v1/subscriptions/${id}`);
  const migrate = (body: object, headers: Record<string, string> = {}) => s.api().post(`/api/v1/plans/${oldPlan}/migrations`).set(headers).send(body);
  const events = async (type: string) => (await s.get<{ items: EventView[] }>(`/api/v1/events?type=${type}&limit=100`)).items;
  const charges = async (id: string) =>
    (await s.get<{ items: { periodStart: string; amount: number; status: string }[] }>(`/api/v1/subscriptions/${id}/charges`)).items.reverse();

  it('moves each subscriber at its first renewal at least the notice ahead, tells each once, and bills the 22 % rate from then on', async () => {
    const early = await subscribe(oldPlan);
    const withOwnChange = await subscribe(oldPlan);
    const canceled = await subscribe(oldPlan);
    const ending = await subscribe(oldPlan);
    await s.runBilling();
    await s.setClock('2027-01-08T10:00:00.000Z');
    const later = await subscribe(oldPlan);
    await s.runBilling();
    await s.post(`/api/v1/subscriptions/${withOwnChange}/change`, { quantity: 2, effective: 'period_end' }, 200);
    await s.post(`/api/v1/subscriptions/${canceled}/cancel`, { atPeriodEnd: false }, 200);
    await s.post(`/api/v1/subscriptions/${ending}/cancel`, { atPeriodEnd: true }, 200);

    await s.setClock('2027-01-10T10:00:00.000Z');
    const asked = await migrate({ toPlanId: newPlan, noticeDays: 30 }, { 'Idempotency-Key': 'reprice-2027' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ fromPlanId: oldPlan, toPlanId: newPlan, noticeDays: 30, quantityRule: 'keep' });
    const again = await migrate({ toPlanId: newPlan, noticeDays: 30 }, { 'Idempotency-Key': 'reprice-2027' });
    expect(again.body.id).toBe(asked.body.id);
    const afterMigration = await subscribe(oldPlan);

    const done = await waitFor(
      () => s.get<MigrationView>(`/api/v1/plan-migrations/${asked.body.id}`),
      (m) => m.status === 'done',
      { what: 'the migration walked every subscription' },
    );
    // Left alone and counted: the one with a change of its own and the one ending at its period end.
    expect(done.counts).toEqual({ scheduled: 2, skipped: 2 });
    // 30 days after 01-10 is 02-09: the 02-05 and 02-08 renewals come first, at the old price.
    expect((await subscription(early)).pendingChange).toEqual({ planId: newPlan, quantity: 1, effectiveAt: '2027-03-05T10:00:00.000Z', source: 'migration', migrationId: done.id });
    expect((await subscription(later)).pendingChange).toMatchObject({ planId: newPlan, effectiveAt: '2027-03-08T10:00:00.000Z' });
    expect((await subscription(withOwnChange)).pendingChange).toMatchObject({ planId: oldPlan, quantity: 2 });
    expect((await subscription(canceled)).pendingChange).toBeNull();
    expect((await subscription(ending)).pendingChange).toBeNull();
    expect((await subscription(afterMigration)).pendingChange).toBeNull();

    const notices = await events('subscription.price_change_upcoming');
    expect(notices.map((e) => e.data.object.id).sort()).toEqual([early, later].sort());
    expect(notices.find((e) => e.data.object.id === early)?.data.change).toEqual({ fromAmount: 100000, toAmount: 101700, currency: 'RUB', effectiveAt: '2027-03-05T10:00:00.000Z' });

    // The renewal inside the notice window is announced and charged at the old price, with the old rate.
    await s.setClock('2027-02-03T10:00:00.000Z');
    await s.runBilling();
    const upcoming = (await events('subscription.renewal_upcoming')).find((e) => e.data.object.id === early);
    expect(upcoming?.data.upcoming?.amount).toBe(100000);
    for (const day of ['2027-02-05', '2027-02-08', '2027-03-05', '2027-03-08']) {
      await s.setClock(`${day}T10:00:00.000Z`);
      await s.runBilling();
    }
    expect((await charges(early)).map((c) => [c.periodStart.slice(0, 10), c.amount, c.status])).toEqual([
      ['2027-01-05', 100000, 'succeeded'],
      ['2027-02-05', 100000, 'succeeded'],
      ['2027-03-05', 101700, 'succeeded'],
    ]);
    expect((await subscription(early)).planId).toBe(newPlan);
    expect((await charges(later)).map((c) => c.amount)).toEqual([100000, 100000, 101700]);
    const carts = (await s.sandboxRequests('createInvoice')).map((r) => r.body as { amount: number; cart: { taxMode?: { rate: string } }[] });
    expect(carts.filter((c) => c.amount === 101700).every((c) => c.cart[0].taxMode?.rate === '22%')).toBe(true);
    expect(carts.filter((c) => c.amount === 100000).every((c) => c.cart[0].taxMode?.rate === '20%')).toBe(true);
    // Told once each, whatever passed since.
    expect(await events('subscription.price_change_upcoming')).toHaveLength(2);
  });

  it('refuses what cannot be migrated, naming the field, and changes nothing', async () => {
    const other = await s.post<{ id: string }>('/api/v1/plans', { name: 'USD', product: 'Seat', currency: 'USD', interval: 'month', lines: [{ product: 'Seat', price: 100 }] });
    const archived = await s.post<{ id: string }>('/api/v1/plans', { name: 'Gone', product: 'Seat', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 100 }] });
    await s.post(`/api/v1/plans/${archived.id}/archive`, {}, 200);
    const cases: [object, number, string, string][] = [
      [{ toPlanId: other.id }, 422, 'business_rule', 'toPlanId'],
      [{ toPlanId: archived.id }, 422, 'business_rule', 'toPlanId'],
      [{ toPlanId: oldPlan }, 400, 'validation_failed', 'toPlanId'],
      [{ toPlanId: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found', 'toPlanId'],
      [{ toPlanId: 'pro' }, 400, 'validation_failed', 'toPlanId'],
      [{}, 400, 'validation_failed', 'toPlanId'],
      [{ toPlanId: newPlan, noticeDays: 91 }, 400, 'validation_failed', 'noticeDays'],
      [{ toPlanId: newPlan, noticeDays: -1 }, 400, 'validation_failed', 'noticeDays'],
      [{ toPlanId: newPlan, noticeDays: 1.5 }, 400, 'validation_failed', 'noticeDays'],
      [{ toPlanId: newPlan, quantityRule: 'reset' }, 400, 'validation_failed', 'quantityRule'],
      [{ toPlanId: newPlan, extra: 1 }, 400, 'validation_failed', 'extra'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await migrate(body);
      expect([JSON.stringify(body), res.status, res.body.code, res.body.field]).toEqual([JSON.stringify(body), status, code, field]);
    }
    const unknownPlan = await s.api().post('/api/v1/plans/00000000-0000-4000-8000-000000000000/migrations').send({ toPlanId: newPlan });
    expect(unknownPlan.status).toBe(404);
    expect((await s.api().get('/api/v1/plan-migrations/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
