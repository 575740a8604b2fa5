import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { Scenario } from './support/scenario';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface ChargeView {
  id: string;
  periodStart: string;
  status: string;
  nextAttemptAt: string | null;
  attempts: { number: number; status: string; errorCode: string | null; createdAt: string }[];
}

describe('readiness and dunning', () => {
  let s: Scenario;
  let planId: string;

  beforeEach(async () => {
    s = await Scenario.start({ DUNNING_RETRY_DELAYS: '1d,3d', DUNNING_FINAL_ACTION: 'unpaid' });
    await s.setClock('2027-03-01T00:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] })).id;
  });

  afterEach(async () => {
    await s.close();
  });

  const chargesOf = async (subscriptionId: string) =>
    (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items;
  const subscription = (id: string) => s.get<{ status: string }>(`/api/v1/subscriptions/${id}`);

  it('never charges a customer who never binds a card, and charges one who binds late on binding', async () => {
    const never = await s.createCustomer();
    const late = await s.createCustomer();
    const neverSub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId: never.id, planId });
    const lateSub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId: late.id, planId });
    expect(neverSub.status).toBe('incomplete');

    await s.setClock('2027-03-10T00:00:00.000Z');
    await s.runBilling();
    expect(await chargesOf(lateSub.id)).toHaveLength(0);

    await s.bindCard(late.id, CARDS.success);
    await s.runBilling();
    const lateCharges = await chargesOf(lateSub.id);
    expect(lateCharges).toHaveLength(1);
    expect(lateCharges[0].status).toBe('succeeded');
    expect((await subscription(lateSub.id)).status).toBe('active');

    await s.setClock('2027-06-10T00:00:00.000Z');
    await s.runBilling();
    expect(await chargesOf(neverSub.id)).toHaveLength(0);
    expect((await subscription(neverSub.id)).status).toBe('incomplete');
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === never.providerCustomerId);
    expect(captured).toHaveLength(0);
  });

  it('retries a soft decline on the ladder, keeps the subscription past_due, then applies the final action', async () => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, Array(5).fill(INSUFFICIENT));
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    let [charge] = await chargesOf(sub.id);
    expect(charge.status).toBe('retrying');
    expect(charge.attempts[0].errorCode).toBe('authorization_failed:insufficient_funds');
    expect(charge.nextAttemptAt).toBe('2027-03-02T00:00:00.000Z');
    expect((await subscription(sub.id)).status).toBe('past_due');

    // Not before the ladder says so.
    await s.setClock('2027-03-01T23:00:00.000Z');
    await s.runBilling();
    expect((await chargesOf(sub.id))[0].attempts).toHaveLength(1);

    await s.setClock('2027-03-02T00:00:00.000Z');
    await s.runBilling();
    [charge] = await chargesOf(sub.id);
    expect(charge.attempts).toHaveLength(2);
    expect(charge.nextAttemptAt).toBe('2027-03-05T00:00:00.000Z');

    await s.setClock('2027-03-05T00:00:00.000Z');
    await s.runBilling();
    [charge] = await chargesOf(sub.id);
    expect(charge.attempts).toHaveLength(3);
    expect(charge.status).toBe('failed');
    expect((await subscription(sub.id)).status).toBe('unpaid');
    expect((await s.ledgerPayments()).filter((p) => p.status === 'captured')).toHaveLength(0);
  });

  it('recovers on the next retry and returns to active on the original schedule', async () => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, [INSUFFICIENT]);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    expect((await subscription(sub.id)).status).toBe('past_due');
    // Days pass: the invoice access token the daemon holds has expired by the retry.
    await s.sandboxControl.expireTokens();
    await s.setClock('2027-03-02T00:00:00.000Z');
    await s.runBilling();
    const [charge] = await chargesOf(sub.id);
    expect(charge.status).toBe('succeeded');
    expect(await s.sandboxRequests('createInvoiceAccessToken')).toHaveLength(1);
    expect(await s.sandboxRequests('createInvoice')).toHaveLength(1);
    const view = await s.get<{ status: string; nextBillingAt: string }>(`/api/v1/subscriptions/${sub.id}`);
    expect(view.status).toBe('active');
    expect(view.nextBillingAt).toBe('2027-04-01T00:00:00.000Z');
  });

  it('stops retrying after a hard decline until a new card is bound, then collects at once', async () => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, ['authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired']);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    let [charge] = await chargesOf(sub.id);
    expect(charge.status).toBe('failed');
    expect(charge.attempts[0].errorCode).toContain('card_expired');

    await s.setClock('2027-03-03T00:00:00.000Z');
    await s.runBilling();
    expect((await chargesOf(sub.id))[0].attempts).toHaveLength(1);

    await s.bindCard(customer.id, CARDS.success);
    await s.runBilling();
    [charge] = await chargesOf(sub.id);
    expect(charge.status).toBe('succeeded');
    expect(charge.attempts).toHaveLength(2);
    expect((await subscription(sub.id)).status).toBe('active');
  });

  it('follows a per-plan ladder but never makes more than 15 attempts in 30 days', async () => {
    const plan = await s.post<{ id: string }>('/api/v1/plans', {
      name: 'Aggressive',
      product: 'Aggressive',
      currency: 'RUB',
      interval: 'month',
      lines: [{ product: 'A', price: 1000 }],
      dunning: { retryDelays: Array(15).fill('1h'), finalAction: 'cancel' },
    });
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, Array(20).fill(INSUFFICIENT));
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id });
    const start = Date.parse('2027-03-01T00:00:00.000Z');
    for (let hour = 0; hour <= 20; hour++) {
      await s.setClock(new Date(start + hour * 3_600_000).toISOString());
      await s.runBilling();
    }
    let [charge] = await chargesOf(sub.id);
    expect(charge.attempts).toHaveLength(15);
    expect(charge.status).toBe('retrying');
    // The 16th attempt waits until the first one has left the 30-day window.
    expect(Date.parse(charge.nextAttemptAt as string)).toBeGreaterThan(start + 30 * 86_400_000);

    await s.setClock(new Date(start + 31 * 86_400_000).toISOString());
    await s.runBilling();
    charge = (await chargesOf(sub.id)).find((c) => c.periodStart === '2027-03-01T00:00:00.000Z') as ChargeView;
    expect(charge.attempts).toHaveLength(16);
    expect(charge.status).toBe('failed');
    expect((await subscription(sub.id)).status).toBe('canceled');
    const times = charge.attempts.map((a) => Date.parse(a.createdAt));
    for (const t of times) {
      expect(times.filter((u) => u > t - 30 * 86_400_000 && u <= t).length).toBeLessThanOrEqual(15);
    }
  });

  it('exposes what happened as Prometheus metrics', async () => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, [INSUFFICIENT]);
    await s.post('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    await s.setClock('2027-03-02T00:00:00.000Z');
    await s.runBilling();
    const metrics = await (await s.api().get('/metrics')).text;
    expect(metrics).toMatch(/billing_charges_total\{outcome="succeeded"\} 1/);
    expect(metrics).toMatch(/billing_charges_total\{outcome="declined_soft"\} 1/);
    expect(metrics).toMatch(/billing_dunning_attempts_total\{result="recovered"\} 1/);
    expect(metrics).toMatch(/billing_provider_request_duration_seconds_count\{operation="createInvoice",result="ok"\} 1/);
    expect(metrics).toContain('billing_due_backlog');
    expect(metrics).toContain('billing_oldest_due_age_seconds');
    expect(metrics).toContain('work_takeovers_total');
  });

  it('replays an invoice whose answer was lost with the very same body, even after the ladder of the plan was edited', async () => {
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.sandboxControl.addFault({ operation: 'createInvoice', kind: 'timeout_after_effect', count: 4 });
    const first = await s.runBilling();
    expect(first.unknown).toBe(1);
    await s.sandboxControl.clearFaults();
    const patched = await s.api().patch(`/api/v1/plans/${planId}`).send({ dunning: { retryDelays: ['2d'], finalAction: 'cancel' } });
    expect(patched.status).toBe(200);
    // The next pass after the charge's backoff replays the invoice and charges it.
    const charge = await waitFor(
      async () => {
        await s.runBilling();
        return (await chargesOf(sub.id))[0];
      },
      (c) => c.status === 'succeeded' || c.status === 'failed',
      { everyMs: 100, what: 'the charge settled after its backoff' },
    );
    expect(charge.status).toBe('succeeded');
    const invoices = await s.sandboxRequests('createInvoice');
    expect(invoices.length).toBeGreaterThanOrEqual(5);
    expect(new Set(invoices.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured');
    expect(captured).toHaveLength(1);
  });
});
