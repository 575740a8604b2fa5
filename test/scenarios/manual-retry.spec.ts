import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { Scenario } from './support/scenario';

const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
const START = Date.parse('2027-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(START + ms).toISOString();
const DAY = 86_400_000;

interface ChargeView {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  waitingForNewCard: boolean;
  attempts: { number: number; status: string; manual: boolean; errorCode: string | null }[];
}

interface DunningView {
  attemptsMade: number;
  manualAttempts: number;
  nextAttemptNumber: number | null;
  nextAttemptAt: string | null;
  givesUpAt: string | null;
}

/**
 * "Retry now" is a support agent's action outside the dunning ladder: it never spends a step of the ladder, never
 * moves the next scheduled attempt, and a decline of it leaves the subscription's status as it was.
 */
describe('a manual retry of a charge being dunned', () => {
  let s: Scenario;

  beforeEach(async () => {
    s = await Scenario.start();
    await s.setClock(at(0));
  });

  afterEach(async () => {
    await s.close();
  });

  const subscriptionStatus = async (id: string) => (await s.get<{ status: string }>(`/api/v1/subscriptions/${id}`)).status;
  const chargeOf = async (subscriptionId: string) => (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items[0];
  const dunningOf = (chargeId: string) => s.get<DunningView>(`/api/v1/charges/${chargeId}/dunning`);
  const events = async (subscriptionId: string) =>
    (await s.get<{ items: { type: string; data: Record<string, unknown> }[] }>(`/api/v1/subscriptions/${subscriptionId}/events?limit=100`)).items;

  /** Retries the charge by hand and waits until the attempt is decided (a payment left to its event settles later). */
  async function retryByHand(chargeId: string): Promise<ChargeView> {
    const res = await s.api().post(`/api/v1/charges/${chargeId}/retry`).send({});
    if (res.status !== 200) throw new Error(`retry answered ${res.status}: ${JSON.stringify(res.body)}`);
    return waitFor(
      () => s.get<ChargeView>(`/api/v1/charges/${chargeId}`),
      (c) => c.status !== 'processing' && c.status !== 'pending' && c.attempts.every((a) => a.status === 'declined' || a.status === 'succeeded'),
      { what: `the manual attempt of charge ${chargeId} decided` },
    );
  }

  /** A subscription on a plan with the given ladder whose card declines every charge for insufficient funds. */
  async function subscribeDeclining(dunning: { retryDelays: string[]; finalAction: 'cancel' | 'unpaid' }): Promise<{ subscriptionId: string; customer: { id: string; providerCustomerId: string } }> {
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 50000 }], dunning });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.renewalInsufficientFunds);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id });
    await s.runBilling();
    return { subscriptionId: sub.id, customer };
  }

  it('two declined manual retries ten seconds apart neither end dunning nor move the ladder, which then runs to its end on time', async () => {
    const { subscriptionId } = await subscribeDeclining({ retryDelays: ['1d', '2d'], finalAction: 'cancel' });
    const first = await chargeOf(subscriptionId);
    expect(first.status).toBe('retrying');
    expect(first.nextAttemptAt).toBe(at(DAY));

    await s.setClock(at(60_000));
    let charge = await retryByHand(first.id);
    await s.setClock(at(70_000));
    charge = await retryByHand(first.id);

    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');
    expect(charge.status).toBe('retrying');
    expect(charge.nextAttemptAt).toBe(at(DAY));
    expect(charge.attempts.map((a) => [a.status, a.manual])).toEqual([
      ['declined', false],
      ['declined', true],
      ['declined', true],
    ]);
    expect(await dunningOf(first.id)).toMatchObject({ attemptsMade: 1, manualAttempts: 2, nextAttemptNumber: 2, nextAttemptAt: at(DAY) });

    // The ladder's own attempts come when they were always due: a day after the first decline, then two days later.
    await s.setClock(at(DAY - 1));
    await s.runBilling();
    expect((await chargeOf(subscriptionId)).attempts).toHaveLength(3);
    await s.setClock(at(DAY));
    await s.runBilling();
    charge = await chargeOf(subscriptionId);
    expect(charge.attempts).toHaveLength(4);
    expect(charge.nextAttemptAt).toBe(at(3 * DAY));
    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');

    await s.setClock(at(3 * DAY));
    await s.runBilling();
    expect((await chargeOf(subscriptionId)).status).toBe('failed');
    expect(await subscriptionStatus(subscriptionId)).toBe('canceled');
  });

  it('a declined "Retry now" on attempt 2 of 3 leaves the subscription past due, not unpaid', async () => {
    const { subscriptionId } = await subscribeDeclining({ retryDelays: ['1d', '2d'], finalAction: 'unpaid' });
    await s.setClock(at(DAY));
    await s.runBilling();
    const before = await chargeOf(subscriptionId);
    expect(await dunningOf(before.id)).toMatchObject({ attemptsMade: 2, nextAttemptNumber: 3, nextAttemptAt: at(3 * DAY) });

    await s.setClock(at(DAY + 3_600_000));
    const after = await retryByHand(before.id);
    expect(after.status).toBe('retrying');
    expect(after.nextAttemptAt).toBe(at(3 * DAY));
    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');
    const declined = (await events(subscriptionId)).filter((e) => e.type === 'charge_declined');
    expect(declined.map((e) => e.data.outsideLadder)).toEqual(expect.arrayContaining([true, false]));
  });

  it('a manual retry after the ladder ended changes nothing when declined, and recovers the subscription when paid', async () => {
    const { subscriptionId, customer } = await subscribeDeclining({ retryDelays: ['1d'], finalAction: 'unpaid' });
    await s.setClock(at(DAY));
    await s.runBilling();
    const exhausted = await chargeOf(subscriptionId);
    expect(exhausted.status).toBe('failed');
    expect(await subscriptionStatus(subscriptionId)).toBe('unpaid');
    const exhaustedEvents = (await events(subscriptionId)).filter((e) => e.type === 'dunning_exhausted').length;

    await s.setClock(at(2 * DAY));
    const declined = await retryByHand(exhausted.id);
    expect(declined.status).toBe('failed');
    expect(declined.nextAttemptAt).toBeNull();
    expect(await subscriptionStatus(subscriptionId)).toBe('unpaid');
    expect((await events(subscriptionId)).filter((e) => e.type === 'dunning_exhausted')).toHaveLength(exhaustedEvents);
    await s.runBilling();
    expect((await chargeOf(subscriptionId)).attempts).toHaveLength(3);

    await s.bindCard(customer.id, CARDS.success);
    const paid = await retryByHand(exhausted.id);
    expect(paid.status).toBe('succeeded');
    expect(paid.attempts[paid.attempts.length - 1]).toMatchObject({ status: 'succeeded', manual: true });
    expect(await subscriptionStatus(subscriptionId)).toBe('active');
  });

  it('a hard decline of a manual retry waits for a new card until the end of dunning, as any hard decline', async () => {
    const { subscriptionId, customer } = await subscribeDeclining({ retryDelays: ['1d', '2d'], finalAction: 'cancel' });
    const charge = await chargeOf(subscriptionId);
    await s.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    await s.setClock(at(3_600_000));
    const after = await retryByHand(charge.id);
    expect(after.status).toBe('failed');
    expect(after.waitingForNewCard).toBe(true);
    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');
    expect((await dunningOf(charge.id)).givesUpAt).toBe(at(3 * DAY));

    // Not given up before the end of dunning: the ladder would have tried until then.
    await s.setClock(at(3 * DAY - 1));
    await s.runBilling();
    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');
    await s.bindCard(customer.id, CARDS.success);
    await s.runBilling();
    expect((await chargeOf(subscriptionId)).status).toBe('succeeded');
    expect(await subscriptionStatus(subscriptionId)).toBe('active');
  });

  it('keeps the card networks\' cap: once a card had 15 attempts in 30 days, a manual retry is a 409 and the ladder stays as it was', async () => {
    const { subscriptionId } = await subscribeDeclining({ retryDelays: ['20d'], finalAction: 'cancel' });
    const charge = await chargeOf(subscriptionId);
    for (let i = 1; i < 15; i++) {
      await s.setClock(at(i * 60_000));
      await retryByHand(charge.id);
    }
    await s.setClock(at(15 * 60_000));
    const refused = await s.api().post(`/api/v1/charges/${charge.id}/retry`).send({});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/No attempt was made/);
    const after = await chargeOf(subscriptionId);
    expect(after.attempts).toHaveLength(15);
    expect(after.status).toBe('retrying');
    expect(after.nextAttemptAt).toBe(at(20 * DAY));
    expect(await subscriptionStatus(subscriptionId)).toBe('past_due');
  });
});
