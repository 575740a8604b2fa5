import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ChargeView, declinedSubscriber } from './recovery-story';

const NOON_IN_MOSCOW = '2027-03-01T09:00:00.000Z';
const HALF_PAST_ELEVEN_PM_IN_MOSCOW = '2027-03-01T20:30:00.000Z';

/**
 * Smart dunning attempts only between 08:00 and 21:00 in the subscription's zone, but a customer who binds a new card at
 * night (through a recovery link, say) is there now: the charge waiting for it is tried at once, not at 08:00.
 */
describe('a card bound at night is charged at once', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '3600000', DUNNING_STRATEGY: 'smart', LOG_LEVEL: 'warn' });
    await s.setClock(NOON_IN_MOSCOW);
  });

  afterAll(() => s?.close());

  it('tries the charge that waited for a new card at 23:30 local time, outside the allowed hours', async () => {
    const { customer, subscriptionId, charge } = await declinedSubscriber(s);
    expect(charge).toMatchObject({ status: 'failed', waitingForNewCard: true });

    await s.setClock(HALF_PAST_ELEVEN_PM_IN_MOSCOW);
    await s.bindCard(customer.id, CARDS.secondSuccess);
    const paid = await waitFor(
      () => s.get<ChargeView & { waitingFor: string | null }>(`/api/v1/charges/${charge.id}`),
      (c) => c.status === 'succeeded' || c.waitingFor === 'allowed_hours',
      { timeoutMs: 60_000, everyMs: 50, what: 'the charge tried with the new card' },
    );
    expect(paid.status).toBe('succeeded');
    expect(paid.attempts.map((a) => [a.status, a.createdAt])).toEqual([
      ['declined', NOON_IN_MOSCOW],
      ['succeeded', HALF_PAST_ELEVEN_PM_IN_MOSCOW],
    ]);
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${subscriptionId}`)).status).toBe('active');
    expect((await s.ledgerPayments()).filter((p) => p.status === 'captured')).toHaveLength(1);
  });
});
