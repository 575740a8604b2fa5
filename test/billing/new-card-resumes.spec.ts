import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';

const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
const NINE_IN_MOSCOW = '2027-03-01T06:00:00.000Z';

interface ChargeView {
  status: string;
  waitingForNewCard?: boolean;
  attempts: { status: string; createdAt: string }[];
}

/**
 * A customer whose card was declined for good binds a new one: the charge that waited for it is tried at once, while
 * they may still be on the page, not at the next billing pass (an hour away here).
 */
describe('a new card resumes collection at once', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '3600000', DUNNING_STRATEGY: 'smart', LOG_LEVEL: 'warn' });
    await s.setClock(NINE_IN_MOSCOW);
  });

  afterAll(() => s?.close());

  it('pays the charge that waited for a new card as soon as the card is bound, with no pass in between', async () => {
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' });
    const chargesOf = async () => (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;

    await s.runBilling();
    expect((await chargesOf())[0]).toMatchObject({ status: 'failed', waitingForNewCard: true });
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`)).status).toBe('past_due');

    await s.bindCard(customer.id, CARDS.secondSuccess);
    const boundAt = Date.now();
    const [paid] = await waitFor(chargesOf, ([charge]) => charge.status === 'succeeded', { timeoutMs: 60_000, everyMs: 50, what: 'the charge paid with the new card' });
    expect(paid.attempts.map((a) => [a.status, a.createdAt])).toEqual([
      ['declined', NINE_IN_MOSCOW],
      ['succeeded', NINE_IN_MOSCOW],
    ]);
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`)).status).toBe('active');
    expect((await s.ledgerPayments()).filter((p) => p.status === 'captured')).toHaveLength(1);
    process.stdout.write(`new card bound: the waiting charge was paid ${Date.now() - boundAt} ms after the binding was read\n`);
  });
});
