import { Scenario } from '../scenarios/support/scenario';
import { actionRequiredOf, anonymous, ChargeView, declinedSubscriber, EXPIRED, NOON_IN_MOSCOW, pathOf } from './recovery-story';

/**
 * charge.action_required: once when a wait for a new card begins, none for an operator's retry declined back into the
 * same wait, and once more when dunning ends (with a fresh link that revokes the first).
 */
describe('charge.action_required', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ LOG_LEVEL: 'warn', DUNNING_RETRY_DELAYS: '1d,2d' });
    await s.setClock(NOON_IN_MOSCOW);
  });

  afterAll(() => s?.close());

  it('is sent when the wait begins, not again for a retry declined into the same wait, and again when dunning ends', async () => {
    const { customer, subscriptionId, charge } = await declinedSubscriber(s);
    const [first] = await actionRequiredOf(s, charge.id);
    expect(first.data.object).toMatchObject({ id: charge.id, waitingForNewCard: true });

    // The operator retries on the same card; it is declined again: the customer already has a working link.
    await s.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    await s.api().post(`/api/v1/charges/${charge.id}/retry`).send({}).expect(200);
    const retried = await s.get<ChargeView>(`/api/v1/charges/${charge.id}`);
    expect(retried.attempts.map((a) => a.status)).toEqual(['declined', 'declined']);
    expect(retried.waitingForNewCard).toBe(true);
    expect(await actionRequiredOf(s, charge.id)).toHaveLength(1);
    expect((await anonymous(s).get(pathOf(first.data.recoveryUrl as string))).status).toBe(200);

    // No card by the end of the ladder's window (1d + 2d): the final action applies, and the customer gets a fresh link.
    await s.setClock('2027-03-04T10:00:00.000Z');
    await s.runBilling();
    const ended = await s.get<ChargeView>(`/api/v1/charges/${charge.id}`);
    expect(ended).toMatchObject({ status: 'failed', waitingForNewCard: false });
    const events = await actionRequiredOf(s, charge.id);
    expect(events).toHaveLength(2);
    expect(events[1].data.object).toMatchObject({ id: charge.id, status: 'failed', waitingForNewCard: false });
    expect(events[1].data.recoveryUrl).not.toBe(first.data.recoveryUrl);
    expect((await anonymous(s).get(pathOf(first.data.recoveryUrl as string))).status).toBe(410);
    expect((await anonymous(s).get(pathOf(events[1].data.recoveryUrl as string))).status).toBe(200);
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${subscriptionId}`)).status).toBe('canceled');
  });
});
