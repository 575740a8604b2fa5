import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { actionRequiredOf, ChargeView, declinedSubscriber, NOON_IN_MOSCOW } from './recovery-story';

/**
 * The link sent when dunning is over still collects: a card bound by its customer tries the ended charge at once, and
 * the subscription left unpaid by the final action is active again.
 */
describe('a recovery link after dunning ended', () => {
  let s: Scenario;

  beforeAll(async () => {
    // The scheduler on, as in production: a bound card wakes the charges loop at once.
    s = await Scenario.start({ LOG_LEVEL: 'warn', DUNNING_RETRY_DELAYS: '1d,2d', DUNNING_FINAL_ACTION: 'unpaid', SCHEDULER_ENABLED: 'true' });
    await s.setClock(NOON_IN_MOSCOW);
  });

  afterAll(() => s?.close());

  it('a new card pays the ended charge once, recovered by the card update, and the subscription is active again', async () => {
    const { customer, subscriptionId, charge } = await declinedSubscriber(s, 'Ended');
    await s.setClock('2027-03-04T10:00:00.000Z');
    await s.runBilling();
    // The scheduler's own passes run beside this one: wait for the end of dunning to be recorded whole.
    await waitFor(
      async () => ({
        charge: await s.get<ChargeView>(`/api/v1/charges/${charge.id}`),
        subscription: (await s.get<{ status: string }>(`/api/v1/subscriptions/${subscriptionId}`)).status,
        links: (await actionRequiredOf(s, charge.id)).length,
      }),
      (v) => v.charge.status === 'failed' && !v.charge.waitingForNewCard && v.subscription === 'unpaid' && v.links === 2,
      { timeoutMs: 30_000, everyMs: 100, what: 'dunning ended: charge failed, subscription unpaid, a second link sent' },
    );

    await s.bindCard(customer.id, CARDS.secondSuccess);
    // The scheduler is off here: each pass works whatever the card's wake made due.
    const paid = await waitFor(
      async () => {
        await s.runBilling();
        return s.get<ChargeView>(`/api/v1/charges/${charge.id}`);
      },
      (c) => c.status === 'succeeded',
      { timeoutMs: 60_000, everyMs: 100, what: 'the ended charge paid with the new card' },
    );
    expect(paid.recoveredBy).toBe('card_update');
    expect(paid.attempts.filter((a) => a.status === 'succeeded')).toHaveLength(1);
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${subscriptionId}`)).status).toBe('active');
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.invoiceMetadata?.subscriptionId === subscriptionId);
    expect(captured).toHaveLength(1);
  });
});
