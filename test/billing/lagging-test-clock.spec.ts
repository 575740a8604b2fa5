import { DataSource } from 'typeorm';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

interface ChargeView {
  id: string;
  kind: string;
  status: string;
  lastErrorCode: string | null;
  invoiceId: string | null;
}

/**
 * The test clock stands still until moved, so on a daemon nobody moved it for a while it lags real time. An invoice's
 * due date comes from the billing clock but the provider compares it with its own, real clock: every charge dates it
 * from the later of the two, so a lagging test clock never sends an invoice already overdue.
 */
describe('charges while the test clock lags real time by two months', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ SCHEDULER_ENABLED: 'false' });
    // As a test clock first used 60 days ago and never moved since would read (it only ever moves forward).
    await s.app.get(DataSource).query(
      `INSERT INTO test_clock (id, now, updated_at) VALUES (1, date_trunc('milliseconds', now()) - interval '60 days', now())
       ON CONFLICT (id) DO UPDATE SET now = EXCLUDED.now`,
    );
  });

  afterAll(async () => {
    await s?.close();
  });

  it('pays both the period charge and the proration charge of an upgrade, each captured by the run that made it', async () => {
    const plan = async (name: string, price: number) =>
      (await s.post<{ id: string }>('/api/v1/plans', { name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] })).id;
    const basic = await plan('Basic', 3100);
    const pro = await plan('Pro', 6200);
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: basic });
    expect(await s.runBilling()).toMatchObject({ due: 1, succeeded: 1, declined: 0, unknown: 0 });

    await s.post('/api/v1/test-clock', { advance: '10d' }, 200);
    const { chargeId } = await s.post<{ chargeId: string }>(`/api/v1/subscriptions/${sub.id}/change`, { planId: pro, effective: 'now' }, 200);
    expect(await s.runBilling()).toMatchObject({ due: 1, succeeded: 1, declined: 0, unknown: 0 });

    const charges = (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
    const captured = new Set((await s.ledgerPayments()).filter((p) => p.status === 'captured').map((p) => p.invoiceID));
    expect(charges.map((c) => ({ kind: c.kind, status: c.status, lastErrorCode: c.lastErrorCode, captured: c.invoiceId !== null && captured.has(c.invoiceId) })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'period', status: 'succeeded', lastErrorCode: null, captured: true },
      { kind: 'proration', status: 'succeeded', lastErrorCode: null, captured: true },
    ]);
    expect(charges.find((c) => c.kind === 'proration')?.id).toBe(chargeId);
  });
});
