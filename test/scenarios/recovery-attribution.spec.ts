import { inHoldout } from '../../src/dunning/dunning-holdout';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { Scenario } from './support/scenario';

const START = Date.parse('2027-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(START + ms).toISOString();
const DAY = 86_400_000;
const FUNDS = 'authorization_failed:insufficient_funds';

interface ChargeView {
  id: string;
  status: string;
  dunningStrategy: string | null;
  recoveredBy: string | null;
  attempts: { status: string }[];
}

interface RevenueItem {
  currency: string;
  failedVolume: number;
  recoveredVolume: number;
  recoveryRate: number | null;
  recoveryRateBy: Record<string, number | null>;
  recoveryByStrategy: { strategy: string; charges: number; recovered: number; recoveryRate: number; interval: { low: number; high: number } }[];
}

/**
 * Recovery we can prove: every charge whose first attempt was declined and that was paid later says what paid it, and
 * the revenue report splits the recovery by that and by the dunning that collected it, with a holdout as the control.
 */
describe('recovery attribution', () => {
  let s: Scenario;

  afterEach(async () => {
    await s.close();
  });

  const chargeOf = async (subscriptionId: string) => (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items[0];

  async function subscribe(planId: string, card: string, script: string[] = []): Promise<{ subscriptionId: string; customerId: string }> {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, card);
    if (script.length > 0) await s.scriptOutcomes(customer.providerCustomerId, script);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    return { subscriptionId: sub.id, customerId: customer.id };
  }

  it('says whether a retry, a new card or an operator recovered each charge, and the report splits recovery by it', async () => {
    s = await Scenario.start();
    await s.setClock(at(0));
    const plan = await s.post<{ id: string }>('/api/v1/plans', {
      name: 'Pro',
      product: 'Pro',
      currency: 'RUB',
      interval: 'month',
      lines: [{ product: 'Seat', price: 50000 }],
      dunning: { retryDelays: ['1d', '1d'], finalAction: 'cancel' },
    });
    const byRetry = await subscribe(plan.id, CARDS.success, [FUNDS, 'success']);
    const byNewCard = await subscribe(plan.id, CARDS.success, [FUNDS]);
    const byOperator = await subscribe(plan.id, CARDS.success, [FUNDS, 'success']);
    const lost = await subscribe(plan.id, CARDS.renewalInsufficientFunds);
    const paidAtOnce = await subscribe(plan.id, CARDS.success);
    await s.runBilling();
    for (const sub of [byRetry, byNewCard, byOperator, lost]) expect(await chargeOf(sub.subscriptionId)).toMatchObject({ status: 'retrying', dunningStrategy: 'fixed', recoveredBy: null });
    expect(await chargeOf(paidAtOnce.subscriptionId)).toMatchObject({ status: 'succeeded', dunningStrategy: null, recoveredBy: null });

    // The operator's retry an hour later; the new card is bound before the ladder's next day, which keeps its time.
    await s.setClock(at(3_600_000));
    const manual = await chargeOf(byOperator.subscriptionId);
    const res = await s.api().post(`/api/v1/charges/${manual.id}/retry`).send({});
    expect(res.status).toBe(200);
    await waitFor(() => chargeOf(byOperator.subscriptionId), (c) => c.status === 'succeeded', { what: 'the manual retry paid' });
    await s.bindCard(byNewCard.customerId, CARDS.secondSuccess);

    await s.setClock(at(DAY));
    await s.runBilling();
    await waitFor(() => chargeOf(byNewCard.subscriptionId), (c) => c.status === 'succeeded', { what: 'the retry on the new card paid' });

    expect(await chargeOf(byRetry.subscriptionId)).toMatchObject({ status: 'succeeded', recoveredBy: 'retry' });
    expect(await chargeOf(byNewCard.subscriptionId)).toMatchObject({ status: 'succeeded', recoveredBy: 'card_update' });
    expect(await chargeOf(byOperator.subscriptionId)).toMatchObject({ status: 'succeeded', recoveredBy: 'manual_retry' });
    expect(await chargeOf(lost.subscriptionId)).toMatchObject({ status: 'retrying', recoveredBy: null });

    const report = await s.get<{ items: RevenueItem[] }>(`/api/v1/reports/revenue?from=${at(0)}&to=${at(31 * DAY)}&interval=month&currency=RUB`);
    const march = report.items[0];
    expect(march).toMatchObject({ failedVolume: 200000, recoveredVolume: 150000, recoveryRate: 0.75 });
    expect(march.recoveryRateBy).toEqual({ retry: 0.25, card_update: 0.25, manual_retry: 0.25, balance: 0 });
    expect(march.recoveryByStrategy).toEqual([{ strategy: 'fixed', charges: 4, recovered: 3, recoveryRate: 0.75, interval: { low: 0.3006, high: 0.9544 } }]);
  });

  it('keeps the holdout share of smart subscriptions on the fixed ladder, chosen by the subscription, and reports each group with its interval', async () => {
    s = await Scenario.start({ DUNNING_STRATEGY: 'smart', DUNNING_HOLDOUT_PERCENT: '50', DUNNING_RETRY_DELAYS: '1d,2d' });
    // Inside smart dunning's allowed hours in any zone near UTC, so every first attempt is made at once.
    await s.setClock(at(10 * 3_600_000));
    const plan = await s.post<{ id: string }>('/api/v1/plans', { name: 'Smart', product: 'Smart', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 10000 }] });
    const subs = [];
    for (let i = 0; i < 16; i++) subs.push(await subscribe(plan.id, CARDS.renewalInsufficientFunds));
    await s.runBilling();

    const groups = { smart: 0, holdout: 0 };
    for (const sub of subs) {
      const charge = await chargeOf(sub.subscriptionId);
      const heldOut = inHoldout(sub.subscriptionId, 50);
      expect(charge.dunningStrategy).toBe(heldOut ? 'holdout' : 'smart');
      // The held-out subscription follows the environment's fixed ladder; the smart one the rules (no ladder).
      const dunning = await s.get<{ retryDelays: string[] }>(`/api/v1/charges/${charge.id}/dunning`);
      expect(dunning.retryDelays).toEqual(heldOut ? ['1d', '2d'] : []);
      groups[heldOut ? 'holdout' : 'smart']++;
    }
    const report = await s.get<{ items: RevenueItem[] }>(`/api/v1/reports/revenue?from=${at(0)}&to=${at(31 * DAY)}&interval=month&currency=RUB`);
    const figures = report.items[0].recoveryByStrategy;
    expect(figures.map((f) => [f.strategy, f.charges, f.recovered])).toEqual(
      [
        ['smart', groups.smart, 0],
        ['holdout', groups.holdout, 0],
      ].filter(([, charges]) => (charges as number) > 0),
    );
    for (const f of figures) expect(f.interval.low).toBe(0);
  });
});
