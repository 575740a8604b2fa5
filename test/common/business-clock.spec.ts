import { PayoutProcessorService } from '../../src/payouts/payout-processor.service';
import { bindCard, listBindings, syncUntil } from '../customers/customer-test-helpers';
import { startTestApp, TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

type Body = Record<string, unknown>;

const T0 = '2031-06-01T00:00:00.000Z';
const T1 = '2031-06-03T12:00:00.000Z';
const PLAN = { name: 'Clocked', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'P', price: 1500 }] };
const DESTINATION_CARD = { cardNumber: CARDS.success, expDate: '12/40', cardHolder: 'IVAN PETROV' };

/**
 * With the test clock on, every time the admin API shows for an object is the billing clock's: never the wall
 * clock's (a customer was once "ready" before it existed). The clock stands still at T0, then moves to T1.
 */
describe('one clock for every time the admin API shows', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' }, payoutTuning: { destinationPollMs: 20, pollDelayMs: 10, maxPollDelayMs: 50 } });
    await setClock(T0);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function call(method: 'get' | 'post' | 'patch', path: string, body?: object, status = method === 'get' ? 200 : 201): Promise<Body> {
    const res = await t.api()[method](path).send(body);
    if (res.status !== status) throw new Error(`${method.toUpperCase()} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as Body;
  }

  const setClock = (now: string) => call('post', '/api/v1/test-clock', { now }, 200);

  /** Binds the card through the admin API and runs the customer follower until the binding has succeeded. */
  async function bind(customerId: string, card: string): Promise<void> {
    const binding = await bindCard(t, customerId, card);
    await syncUntil(t, async () => (await listBindings(t, customerId)).some((b) => b.id === binding.id && b.status === 'succeeded'));
  }

  /** Runs the payout processor until `done` answers something. */
  async function payoutsUntil(done: () => Promise<Body | undefined>): Promise<Body> {
    const processor = t.app.get(PayoutProcessorService);
    const settled = await waitFor(
      async () => {
        const value = await done();
        if (!value) await processor.runOnce();
        return value;
      },
      (value) => value !== undefined,
      { timeoutMs: 60_000, what: 'the payouts settled' },
    );
    return settled as Body;
  }

  it('stamps plans, customers, bindings, subscriptions and their events with the clock, readyAt never before createdAt', async () => {
    const plan = await call('post', '/api/v1/plans', PLAN);
    expect(plan).toMatchObject({ createdAt: T0, updatedAt: T0 });
    const customer = await call('post', '/api/v1/customers', { email: 'clock@example.com' });
    expect(customer).toMatchObject({ createdAt: T0, updatedAt: T0, readyAt: null });
    await bind(customer.id as string, CARDS.success);
    expect(await call('get', `/api/v1/customers/${customer.id}`)).toMatchObject({ status: 'ready', createdAt: T0, readyAt: T0, updatedAt: T0 });
    const { items: bindings } = (await call('get', `/api/v1/customers/${customer.id}/bindings`)) as { items: Body[] };
    expect(bindings).toEqual([expect.objectContaining({ status: 'succeeded', createdAt: T0, updatedAt: T0 })]);

    const subscription = await call('post', '/api/v1/subscriptions', { customerId: customer.id, planId: plan.id });
    expect(subscription).toMatchObject({ status: 'active', startAt: T0, createdAt: T0, updatedAt: T0 });
    await call('post', '/api/v1/billing/run', {}, 200);
    const { items: charges } = (await call('get', `/api/v1/subscriptions/${subscription.id}/charges`)) as { items: ({ attempts: Body[] } & Body)[] };
    expect(charges[0].attempts).toEqual([expect.objectContaining({ status: 'succeeded', createdAt: T0 })]);
    expect(charges[0]).toMatchObject({ status: 'succeeded', createdAt: T0, updatedAt: T0 });

    await setClock(T1);
    expect(await call('patch', `/api/v1/plans/${plan.id}`, { name: 'Renamed' }, 200)).toMatchObject({ createdAt: T0, updatedAt: T1 });
    expect(await call('post', `/api/v1/subscriptions/${subscription.id}/pause`, {}, 200)).toMatchObject({ pausedAt: T1, updatedAt: T1, createdAt: T0 });
    expect(await call('post', `/api/v1/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: false }, 200)).toMatchObject({
      status: 'canceled',
      canceledAt: T1,
      updatedAt: T1,
    });
    // The paid charge is not touched by the cancellation: it keeps the time it was settled at.
    expect(await call('get', `/api/v1/charges/${charges[0].id}`)).toMatchObject({ status: 'succeeded', updatedAt: T0 });
    const { items: events } = (await call('get', `/api/v1/subscriptions/${subscription.id}/events`)) as { items: Body[] };
    for (const event of events) expect(event.createdAt).toBe(event.occurredAt);
    expect(events.map((e) => e.createdAt)).toEqual(events.map((e) => (['paused', 'canceled'].includes(e.type as string) ? T1 : T0)));

    // A second card: the new binding and the customer's change are stamped with the moved clock.
    await bind(customer.id as string, CARDS.secondSuccess);
    const after = await call('get', `/api/v1/customers/${customer.id}`);
    expect(after).toMatchObject({ createdAt: T0, readyAt: T0, updatedAt: T1, card: expect.objectContaining({ lastDigits: '4444' }) });
  });

  it('stamps payout destinations, payouts and batches with the clock, while the payouts themselves run on real time', async () => {
    await setClock('2031-07-01T00:00:00.000Z');
    const now = '2031-07-01T00:00:00.000Z';
    await call('post', '/api/v1/payouts/setup', { identityName: 'Clock Ltd', provider: 'test', class: 'company', walletName: 'Wallet', currency: 'RUB' });
    const destination = await call('post', '/api/v1/payouts/destinations', { name: 'Card', currency: 'RUB', card: DESTINATION_CARD });
    expect(destination.createdAt).toBe(now);
    const authorized = await payoutsUntil(async () => {
      const current = await call('get', `/api/v1/payouts/destinations/${destination.id}`);
      return current.status === 'Authorized' ? current : undefined;
    });
    expect(authorized).toMatchObject({ createdAt: now, authorizedAt: now });

    const payout = await call('post', '/api/v1/payouts', { destinationId: destination.id, amount: 700, currency: 'RUB' }, 202);
    expect(payout).toMatchObject({ createdAt: now, updatedAt: now });
    const batch = await call('post', '/api/v1/payouts/batches', { items: [{ destinationId: destination.id, amount: 800, currency: 'RUB' }] }, 202);
    expect(batch.createdAt).toBe(now);
    const settled = await payoutsUntil(async () => {
      const current = await call('get', `/api/v1/payouts/${payout.id}`);
      return current.status === 'succeeded' ? current : undefined;
    });
    expect(settled).toMatchObject({ createdAt: now, updatedAt: now, completedAt: now });
    const { items } = (await call('get', `/api/v1/payouts?batchId=${batch.id}`)) as { items: Body[] };
    expect(items).toEqual([expect.objectContaining({ createdAt: now })]);
  });
});
