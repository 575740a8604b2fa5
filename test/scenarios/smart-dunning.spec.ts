import { CARDS } from '../support/test-cards';
import { Scenario } from './support/scenario';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';
const REFUSED = 'authorization_failed:rejected_by_issuer';
const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
const UNAVAILABLE = 'authorization_failed:temporarily_unavailable';

interface ChargeView {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  waitingFor?: string | null;
  waitingForNewCard?: boolean;
  attempts: { number: number; status: string; errorCode: string | null; createdAt: string }[];
}

describe('smart dunning', () => {
  let s: Scenario;
  let planId: string;

  beforeEach(async () => {
    // Plans that give no dunning of their own follow DUNNING_STRATEGY, smart by default.
    s = await Scenario.start({ DUNNING_STRATEGY: 'smart', LOG_LEVEL: 'warn' });
    // 03:00 in Moscow: outside the allowed hours.
    await s.setClock('2027-03-01T00:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] })).id;
  });

  afterEach(async () => {
    await s.close();
  });

  const chargesOf = async (subscriptionId: string) => (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items;
  const subscribe = async (outcomes: string[]) => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, outcomes);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: 'Europe/Moscow' });
    return { customer, sub };
  };
  /** Moves the clock to `at`, runs billing, and answers the subscription's only charge. */
  const at = async (subscriptionId: string, time: string) => {
    await s.setClock(time);
    await s.runBilling();
    return (await chargesOf(subscriptionId))[0];
  };

  it('tries only between 08:00 and 21:00 local and retries insufficient funds on the morning after payday', async () => {
    const { sub } = await subscribe([INSUFFICIENT, INSUFFICIENT, 'success']);
    // Nothing went to the provider: the run says the charge waits for the allowed hours, not that its outcome is open.
    expect(await s.runBilling()).toMatchObject({ due: 1, succeeded: 0, declined: 0, unknown: 0, waitingForAllowedHours: 1 });
    let [charge] = await chargesOf(sub.id);
    expect(charge.attempts).toHaveLength(0);
    expect(charge).toMatchObject({ status: 'pending', nextAttemptAt: '2027-03-01T05:00:00.000Z', waitingFor: 'allowed_hours' });

    charge = await at(sub.id, '2027-03-01T05:00:00.000Z');
    expect(charge.attempts.map((a) => a.errorCode)).toEqual([INSUFFICIENT]);
    // Still in the payday window (1st and 2nd): the next morning at 09:00 Moscow, the ladder's own time.
    expect(charge).toMatchObject({ nextAttemptAt: '2027-03-02T06:00:00.000Z', waitingFor: null });
    charge = await at(sub.id, '2027-03-02T06:00:00.000Z');
    // The window is over: the next payday, the 15th, at 09:00 Moscow.
    expect(charge.nextAttemptAt).toBe('2027-03-15T06:00:00.000Z');
    expect((await at(sub.id, '2027-03-14T20:00:00.000Z')).attempts).toHaveLength(2);
    charge = await at(sub.id, '2027-03-15T06:00:00.000Z');
    expect(charge.status).toBe('succeeded');
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`)).status).toBe('active');
  });

  it('never retries a hard decline on the same card, and tries a new card at once', async () => {
    const { customer, sub } = await subscribe([EXPIRED]);
    let charge = await at(sub.id, '2027-03-01T06:00:00.000Z');
    expect(charge.waitingForNewCard).toBe(true);
    // Deadline: 21 days after the first decline.
    expect(await s.get(`/api/v1/charges/${charge.id}/dunning`)).toMatchObject({ givesUpAt: '2027-03-22T06:00:00.000Z', waitingForNewCard: true, maxAttempts: 15 });
    charge = await at(sub.id, '2027-03-10T10:00:00.000Z');
    expect(charge.attempts).toHaveLength(1);

    await s.bindCard(customer.id, CARDS.secondSuccess);
    charge = await at(sub.id, '2027-03-10T10:00:00.000Z');
    expect(charge.status).toBe('succeeded');
    expect(charge.attempts.map((a) => a.createdAt)).toEqual(['2027-03-01T06:00:00.000Z', '2027-03-10T10:00:00.000Z']);
  });

  it('tries a new card at once while a retry waits for payday, at 08:00 local when bound at night; a fixed retry keeps its day', async () => {
    const { customer, sub } = await subscribe([INSUFFICIENT, INSUFFICIENT]);
    let charge = await at(sub.id, '2027-03-01T05:00:00.000Z');
    charge = await at(sub.id, '2027-03-02T06:00:00.000Z');
    expect(charge.nextAttemptAt).toBe('2027-03-15T06:00:00.000Z');
    await s.setClock('2027-03-05T19:30:00.000Z');
    await s.bindCard(customer.id, CARDS.secondSuccess);
    // 22:30 in Moscow: the new card waits for the morning, not for the 15th; the run counts no decline for it.
    expect(await s.runBilling()).toMatchObject({ due: 1, declined: 0, unknown: 0, waitingForAllowedHours: 1 });
    [charge] = await chargesOf(sub.id);
    expect(charge.attempts).toHaveLength(2);
    expect(charge).toMatchObject({ status: 'retrying', nextAttemptAt: '2027-03-06T05:00:00.000Z', waitingFor: 'allowed_hours' });
    charge = await at(sub.id, '2027-03-06T05:00:00.000Z');
    expect(charge.status).toBe('succeeded');
    expect(charge.attempts.map((a) => a.createdAt)).toEqual(['2027-03-01T05:00:00.000Z', '2027-03-02T06:00:00.000Z', '2027-03-06T05:00:00.000Z']);

    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Fixed', product: 'Fixed', currency: 'RUB', interval: 'month', lines: [{ product: 'Fixed', price: 100 }], dunning: { retryDelays: ['3d'], finalAction: 'cancel' } })).id;
    const fixed = await subscribe([INSUFFICIENT]);
    charge = await at(fixed.sub.id, '2027-03-06T06:00:00.000Z');
    expect(charge.nextAttemptAt).toBe('2027-03-09T06:00:00.000Z');
    await s.bindCard(fixed.customer.id, CARDS.secondSuccess);
    charge = await at(fixed.sub.id, '2027-03-06T07:00:00.000Z');
    expect(charge.attempts).toHaveLength(1);
    expect(charge.nextAttemptAt).toBe('2027-03-09T06:00:00.000Z');
  });

  it('spaces issuer refusals 1, 2, 2, 3, 3, 4, 4 days at 09:00 local, then waits for a new card; technical failures spend their own budget', async () => {
    const { sub } = await subscribe([UNAVAILABLE, ...Array<string>(8).fill(REFUSED), 'success']);
    let charge = await at(sub.id, '2027-03-01T06:00:00.000Z');
    expect(charge.nextAttemptAt).toBe('2027-03-01T06:15:00.000Z');
    const times: string[] = [];
    for (let i = 0; i < 8; i++) {
      times.push(charge.nextAttemptAt as string);
      charge = await at(sub.id, charge.nextAttemptAt as string);
    }
    expect(times).toEqual(['2027-03-01T06:15:00.000Z', ...['02', '04', '06', '09', '12', '16', '20'].map((d) => `2027-03-${d}T06:00:00.000Z`)]);
    expect(charge.attempts).toHaveLength(9);
    expect(charge.waitingForNewCard).toBe(true);
    charge = await at(sub.id, '2027-03-21T10:00:00.000Z');
    expect(charge.attempts).toHaveLength(9);
    charge = await at(sub.id, '2027-03-22T06:00:00.000Z');
    expect(charge.status).toBe('failed');
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`)).status).toBe('canceled');
  });

  it('answers its rules and keeps a fixed plan on its ladder', async () => {
    const rules = await s.get<{ paydays: number[]; maxAttemptsPer30Days: number; defaultStrategy: string; classes: { class: string }[] }>('/api/v1/dunning/rules');
    expect(rules).toMatchObject({ paydays: [1, 15], maxAttemptsPer30Days: 15, defaultStrategy: 'smart', allowedFromHour: 8, allowedUntilHour: 21 });
    expect(rules.classes.map((c) => c.class)).toEqual(['hard', 'technical', 'insufficient_funds', 'issuer_refusal']);

    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Fixed', product: 'Fixed', currency: 'RUB', interval: 'month', lines: [{ product: 'Fixed', price: 100 }], dunning: { retryDelays: ['1d'], finalAction: 'cancel' } })).id;
    const { sub } = await subscribe([INSUFFICIENT, 'success']);
    await s.runBilling();
    const [charge] = await chargesOf(sub.id);
    // Fixed: tried at once (03:00 local), retried a day later.
    expect(charge.attempts[0].createdAt).toBe('2027-03-01T00:00:00.000Z');
    expect(charge.nextAttemptAt).toBe('2027-03-02T00:00:00.000Z');
  });
});
