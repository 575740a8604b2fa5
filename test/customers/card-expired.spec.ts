import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';

const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface CustomerView {
  id: string;
  cardExpired: boolean;
}

/**
 * "Card expired" on the customer answer: the daemon never sees a card's expiry date, so the flag is the newest decline's
 * code (the provider's card_expired) on the card still active; a new card clears it.
 */
describe('the customer answer flags an expired card', () => {
  let s: Scenario;
  let planId: string;

  beforeAll(async () => {
    s = await Scenario.start({ LOG_LEVEL: 'warn' });
    await s.setClock('2027-03-01T06:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] })).id;
  });
  afterAll(() => s?.close());

  async function declinedWith(outcome: string): Promise<{ id: string; providerCustomerId: string }> {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, [outcome]);
    await s.post('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: 'Europe/Moscow' });
    return customer;
  }
  const read = (id: string) => s.get<CustomerView>(`/api/v1/customers/${id}`);

  it('flags the customer after an expired-card decline, in the list too, and not after another decline', async () => {
    const expired = await declinedWith(EXPIRED);
    const funds = await declinedWith(INSUFFICIENT);
    await s.runBilling();
    expect((await read(expired.id)).cardExpired).toBe(true);
    expect((await read(funds.id)).cardExpired).toBe(false);
    const listed = (await s.get<{ items: CustomerView[] }>('/api/v1/customers?limit=50')).items;
    expect(Object.fromEntries(listed.filter((c) => [expired.id, funds.id].includes(c.id)).map((c) => [c.id, c.cardExpired]))).toEqual({ [expired.id]: true, [funds.id]: false });
  });

  it('clears the flag once a new card is bound, even before the charge is tried again on it', async () => {
    const customer = await declinedWith(EXPIRED);
    await s.runBilling();
    expect((await read(customer.id)).cardExpired).toBe(true);
    await s.bindCard(customer.id, CARDS.secondSuccess);
    // Whether or not the waiting charge has been paid with the new card yet, the expired one is no longer active.
    await waitFor(() => read(customer.id), (c) => c.cardExpired === false, { timeoutMs: 30_000, everyMs: 100, what: 'the flag cleared by the new card' });
  });
});
