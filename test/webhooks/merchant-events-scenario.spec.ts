import { EVENT_TYPES } from '../../src/events/event-types';
import { futureExpDate, SETUP_BODY } from '../payouts/support/payout-fixtures';
import { CARDS } from '../support/test-cards';
import { FAST_PAYOUT_TUNING } from '../payouts/support/payout-test-app';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { BillingStory } from './support/billing-story';
import { MerchantReceiver } from './support/merchant-receiver';
import { allEvents, createEndpoint, EventView, FAST_WEBHOOK_TUNING, until } from './support/webhook-fixtures';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';
const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';

/** Where the admin API shows the object of an event of this type. */
const GET_PATH: Record<string, string> = { customer: 'customers', subscription: 'subscriptions', charge: 'charges', refund: 'refunds', payout: 'payouts' };

describe('Merchant events: a billing story, told to a receiver that verifies every signature', () => {
  let t: TestApp;
  let story: BillingStory;
  let receiver: MerchantReceiver;
  const startedAt = Date.now();

  beforeAll(async () => {
    await resetDatabase();
    receiver = await MerchantReceiver.start();
    t = await startTestApp({
      env: { TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '86400000', DUNNING_RETRY_DELAYS: '1d,3d', DUNNING_FINAL_ACTION: 'cancel' },
      billingTuning: { paymentPollMs: 3000 },
      payoutTuning: FAST_PAYOUT_TUNING,
      webhookTuning: FAST_WEBHOOK_TUNING,
    });
    story = new BillingStory(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** The newest event about `objectId` of `type`, from the admin API. */
  /** The newest event of `type` about the object; a charge left open by a pass (a slow machine) is settled by the engine meanwhile. */
  function latest(type: string, objectId: string): Promise<EventView> {
    return until(async () => (await allEvents(t.api, type)).find((e) => e.data.object.id === objectId), 60_000, `a ${type} event about ${objectId}`);
  }

  async function payoutSettled(id: string): Promise<{ status: string }> {
    return until(
      async () => {
        const payout = await story.get<{ status: string }>(`/api/v1/payouts/${id}`);
        return payout.status === 'succeeded' || payout.status === 'failed' ? payout : undefined;
      },
      60_000,
      `payout ${id} final`,
    );
  }

  it('sends every event type, each object as its GET showed it, every charge.succeeded a capture', async () => {
    await story.setClock('2027-03-01T00:00:00.000Z');
    const endpoint = await createEndpoint(t.api, { url: receiver.url, description: 'all events' });
    receiver.useSecret(endpoint.secret);
    const plan = await story.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] });

    // A pays and later cancels at the period end.
    const a = await story.createCustomer();
    expect(await story.bindCard(a.id, CARDS.success)).toBe('succeeded');
    const subA = await story.post<{ id: string }>('/api/v1/subscriptions', { customerId: a.id, planId: plan.id });
    expect((await latest('subscription.created', subA.id)).data.object).toEqual(subA);

    // B: the first card is refused at binding; the second binds, but every payment is declined: dunning to the end.
    const b = await story.createCustomer();
    expect(await story.bindCard(b.id, CARDS.insufficientFunds)).toBe('failed');
    const bindingFailed = await latest('customer.binding_failed', b.id);
    expect(bindingFailed.data.object).toMatchObject({ id: b.id, status: 'unready' });
    expect(bindingFailed.data.error?.code).toEqual(expect.stringMatching(/\w+/));
    expect(await story.bindCard(b.id, CARDS.success)).toBe('succeeded');
    await story.scriptOutcomes(b.providerCustomerId, [INSUFFICIENT, INSUFFICIENT, INSUFFICIENT]);
    const subB = await story.post<{ id: string }>('/api/v1/subscriptions', { customerId: b.id, planId: plan.id });

    // C: half price for its first month (a coupon), a hard decline, then a new card, collected at once.
    await story.post('/api/v1/coupons', { code: 'WELCOME50', name: 'Welcome', percentOff: 50, duration: 'once' });
    const c = await story.createCustomer();
    await story.bindCard(c.id, CARDS.success);
    await story.scriptOutcomes(c.providerCustomerId, [EXPIRED]);
    const subC = await story.post<{ id: string }>('/api/v1/subscriptions', { customerId: c.id, planId: plan.id, couponCode: 'WELCOME50' });

    // D: a ten-day trial, told 7 days before it turns paid, then canceled at its end.
    const trialPlan = await story.post<{ id: string }>('/api/v1/plans', { name: 'Trial', product: 'Trial', currency: 'RUB', interval: 'month', trialDays: 10, lines: [{ product: 'Trial', price: 99000 }] });
    const d = await story.createCustomer();
    await story.bindCard(d.id, CARDS.success);
    const subD = await story.post<{ id: string }>('/api/v1/subscriptions', { customerId: d.id, planId: trialPlan.id });

    await story.runBilling();
    const bDeclined = await latest('charge.declined', (await story.get<{ items: { id: string }[] }>(`/api/v1/subscriptions/${subB.id}/charges`)).items[0].id);
    expect(bDeclined.data.object).toMatchObject({ status: 'retrying', nextAttemptAt: '2027-03-02T00:00:00.000Z' });
    const pastDue = await latest('subscription.updated', subB.id);
    expect(pastDue.data).toMatchObject({ object: { status: 'past_due' }, previous: { status: 'active' } });

    await story.bindCard(c.id, CARDS.secondSuccess);
    expect((await latest('customer.ready', c.id)).data.object).toMatchObject({ card: { lastDigits: '4444' } });
    await story.runBilling();

    const canceling = await story.post<Record<string, unknown>>(`/api/v1/subscriptions/${subA.id}/cancel`, { atPeriodEnd: true }, 200);
    const scheduled = await latest('subscription.updated', subA.id);
    expect(scheduled.data).toEqual({ object: canceling, previous: { cancelAtPeriodEnd: false } });

    await story.setClock('2027-03-02T00:00:00.000Z');
    await story.runBilling();
    await story.setClock('2027-03-05T00:00:00.000Z');
    await story.runBilling();
    expect((await latest('subscription.trial_ending', subD.id)).data.upcoming).toEqual({ amount: 99000, currency: 'RUB', chargeAt: '2027-03-11T00:00:00.000Z' });
    await story.post(`/api/v1/subscriptions/${subD.id}/cancel`, { atPeriodEnd: true }, 200);
    // C renews on 2027-04-01: told on 2027-03-25 or later; A (canceling at the period end) and B (canceled) are not.
    await story.setClock('2027-03-26T00:00:00.000Z');
    await story.runBilling();
    expect((await latest('subscription.renewal_upcoming', subC.id)).data.upcoming).toEqual({ amount: 99000, currency: 'RUB', chargeAt: '2027-04-01T00:00:00.000Z' });
    // Its coupon covered March only: it is told the full price comes back.
    expect((await latest('subscription.discount_ending', subC.id)).data.upcoming).toEqual({ amount: 99000, currency: 'RUB', chargeAt: '2027-04-01T00:00:00.000Z' });
    await story.setClock('2027-04-01T00:00:00.000Z');
    await story.runBilling();

    // The price changes: C, the plan's one subscriber left, moves at its first renewal 30 days ahead, and is told.
    const repriced = await story.post<{ id: string }>('/api/v1/plans', { name: 'Basic 2027', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 109000 }] });
    const migration = await story.post<{ id: string }>(`/api/v1/plans/${plan.id}/migrations`, { toPlanId: repriced.id }, 202);
    await until(async () => ((await story.get<{ status: string }>(`/api/v1/plan-migrations/${migration.id}`)).status === 'done' ? true : undefined), 60_000, 'the migration done');
    const priceChange = await latest('subscription.price_change_upcoming', subC.id);
    expect(priceChange.data.object).toEqual(await story.get(`/api/v1/subscriptions/${subC.id}`));
    expect(priceChange.data.change).toEqual({ fromAmount: 99000, toAmount: 109000, currency: 'RUB', effectiveAt: '2027-05-01T00:00:00.000Z' });

    // Payouts: one to a card that takes it, one to a card that refuses it.
    await story.post('/api/v1/payouts/setup', SETUP_BODY);
    const payoutIds: string[] = [];
    for (const card of [CARDS.success, CARDS.insufficientFunds]) {
      const destination = await story.post<{ id: string }>('/api/v1/payouts/destinations', {
        name: 'Recipient',
        currency: 'RUB',
        card: { cardNumber: card, expDate: futureExpDate(), cardHolder: 'IVAN PETROV' },
      });
      payoutIds.push((await story.post<{ id: string }>('/api/v1/payouts', { destinationId: destination.id, amount: 5000, currency: 'RUB' }, 202)).id);
    }
    expect((await Promise.all(payoutIds.map(payoutSettled))).map((p) => p.status)).toEqual(['succeeded', 'failed']);

    // E pays with a card whose refunds the bank refuses; then the plan is repriced again: E is told (C, whose change is
    // pending already, is left alone and keeps the first one).
    const e = await story.createCustomer();
    await story.bindCard(e.id, CARDS.refundsFail);
    const subE = await story.post<{ id: string }>('/api/v1/subscriptions', { customerId: e.id, planId: plan.id });
    await story.runBilling();
    const repricedAgain = await story.post<{ id: string }>('/api/v1/plans', { name: 'Basic 2', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 109000 }] });
    await story.post(`/api/v1/plans/${plan.id}/migrations`, { toPlanId: repricedAgain.id, noticeDays: 0 }, 202);
    for (const sub of [subC, subE]) expect(((await latest('subscription.price_change_upcoming', sub.id)).data as { change?: object }).change).toMatchObject({ fromAmount: 99000, toAmount: 109000 });

    // Refunds: part of C's April charge to the card, E's refused by the bank, part of A's March charge to the balance.
    const paidOf = async (sub: { id: string }) => (await story.get<{ items: { id: string; status: string }[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items.find((ch) => ch.status === 'succeeded') as { id: string };
    const refundIds: string[] = [];
    for (const [sub, body] of [
      [subC, { amount: 10000, reason: 'service_issue' }],
      [subE, { amount: 5000 }],
      [subA, { amount: 3000, to: 'balance' }],
    ] as const) {
      refundIds.push((await story.post<{ id: string }>(`/api/v1/charges/${(await paidOf(sub)).id}/refunds`, body, 202)).id);
    }
    const refunds = await Promise.all(refundIds.map((id) => until(async () => {
      const refund = await story.get<{ status: string; chargeId: string; amount: number }>(`/api/v1/refunds/${id}`);
      return refund.status === 'pending' ? undefined : refund;
    }, 60_000, `refund ${id} final`)));
    expect(refunds.map((r) => r.status)).toEqual(['succeeded', 'failed', 'succeeded']);

    // Everything the daemon recorded reaches the receiver, verified, each id with one body.
    const events = await allEvents(t.api);
    await until(async () => (events.every((e) => receiver.unique().some((d) => d.id === e.id)) ? true : undefined), 60_000, 'every event delivered');
    expect(receiver.rejected).toEqual([]);
    expect(receiver.idsWithDifferentBodies()).toEqual([]);
    for (const delivered of receiver.unique()) expect(delivered.event).toEqual(events.find((e) => e.id === delivered.id));
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    console.log(`merchant events: ${events.length} events, by type ${JSON.stringify(countBy(events.map((e) => e.type)))}`);

    // Event times are real time, whatever the test clock says.
    for (const e of events) expect(Date.parse(e.createdAt)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(events.every((e) => Date.parse(e.createdAt) <= Date.now())).toBe(true);

    // Every paid charge was told once, and the provider captured exactly those.
    expect(receiver.ofType('charge.succeeded')).toHaveLength(await story.capturedPayments());
    expect(receiver.ofType('charge.succeeded')).toHaveLength(4);
    const bChargeId = bDeclined.data.object.id as string;
    const bChargeTypes = events.filter((e) => e.data.object.id === bChargeId).map((e) => e.type).reverse();
    // Dunning over: only the customer can pay now, and they get a recovery link (charge.action_required).
    expect(bChargeTypes).toEqual(['charge.declined', 'charge.declined', 'charge.declined', 'charge.failed', 'charge.action_required']);
    expect((await latest('subscription.canceled', subB.id)).data.object).toMatchObject({ status: 'canceled' });
    expect((await latest('subscription.canceled', subA.id)).data.object).toMatchObject({ status: 'canceled', canceledAt: '2027-04-01T00:00:00.000Z' });
    expect((await allEvents(t.api, 'subscription.renewal_upcoming')).map((e) => e.data.object.id)).toEqual([subC.id]);
    const renewal = await latest('subscription.updated', subC.id);
    expect(renewal.data).toMatchObject({
      object: { currentPeriodStart: '2027-04-01T00:00:00.000Z' },
      previous: { currentPeriodStart: '2027-03-01T00:00:00.000Z', currentPeriodEnd: '2027-04-01T00:00:00.000Z' },
    });

    // The newest event about each object shows exactly what its GET shows now (nothing changed since), but for a
    // charge's amountRefunded: a refund is told once, as refund.succeeded, and a charge shows the sum of those.
    const newest = new Map<string, EventView>();
    for (const ev of events) if (!newest.has(String(ev.data.object.id))) newest.set(String(ev.data.object.id), ev);
    for (const [id, ev] of newest) {
      const now = await story.get(`/api/v1/${GET_PATH[ev.type.split('.')[0]]}/${id}`);
      if (ev.type.startsWith('charge.')) {
        const refunded = events.filter((r) => r.type === 'refund.succeeded' && r.data.object.chargeId === id).reduce((sum, r) => sum + Number(r.data.object.amount), 0);
        expect(now.amountRefunded).toBe(refunded);
        now.amountRefunded = ev.data.object.amountRefunded;
      }
      expect({ type: ev.type, object: ev.data.object }).toEqual({ type: ev.type, object: now });
    }
  });
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
