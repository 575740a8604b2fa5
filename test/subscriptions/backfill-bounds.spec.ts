import { MAX_SKIPPED_CHARGES_RECORDED } from '../../src/billing/period-materializer.service';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

interface ChargeView {
  status: string;
  periodStart: string;
}

/**
 * No backlog is ever charged in one burst: a new subscription may start at most one period back and at most five
 * years ahead, and after downtime at most BILLING_MAX_CATCH_UP_PERIODS periods of one subscription are charged in a
 * pass; older missed ones are recorded as skipped (audit trail, metric), never charged.
 */
describe('backfill and catch-up bounds', () => {
  let s: Scenario;
  let planId: string;
  let customerId: string;

  const charges = async (subscriptionId: string) =>
    (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges?limit=200`)).items.sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  const capturedFor = async (subscriptionId: string) =>
    (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.invoiceMetadata.subscriptionId === subscriptionId).length;

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-05-10T10:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'M', product: 'M', currency: 'RUB', interval: 'month', lines: [{ product: 'M', price: 999 }] })).id;
    customerId = (await s.createCustomer()).id;
    await s.bindCard(customerId, CARDS.success);
  });
  afterAll(() => s?.close());

  it.each([
    ['2001-01-01T00:00:00.000Z', 'startAt must be at most one billing period'],
    ['2027-04-10T09:59:59.999Z', 'startAt must be at most one billing period'],
    ['2032-05-10T10:00:00.001Z', 'startAt must be at most 5 years ahead'],
    ['9999-01-01T00:00:00.000Z', 'startAt must be at most 5 years ahead'],
    // Without a zone the instant would depend on the server's time zone.
    ['2027-05-20T10:00:00', 'startAt must be an ISO 8601 date-time with a zone'],
  ])('refuses startAt %s with a 400 naming the field, creating nothing', async (startAt, message) => {
    const before = (await s.get<{ items: unknown[] }>('/api/v1/subscriptions?limit=200')).items.length;
    const res = await s.api().post('/api/v1/subscriptions').send({ customerId, planId, startAt });
    expect(res.status).toBe(400);
    expect((res.body.message as string[]).some((m) => m.startsWith(message))).toBe(true);
    expect((await s.get<{ items: unknown[] }>('/api/v1/subscriptions?limit=200')).items).toHaveLength(before);
  });

  it('accepts a start exactly one period back and one just inside five years ahead', async () => {
    await s.post('/api/v1/subscriptions', { customerId, planId, startAt: '2027-04-10T10:00:00.000Z' });
    await s.post('/api/v1/subscriptions', { customerId, planId, startAt: '2032-05-09T10:00:00.000Z' });
  });

  it('after seven months of downtime charges the newest three periods and records the four before as skipped', async () => {
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId, startAt: '2027-05-10T10:00:00.000Z' });
    await s.runBilling();
    expect(await capturedFor(sub.id)).toBe(1);

    // The daemon was down from June to December: seven more periods have begun (Jun 10 … Dec 10).
    await s.setClock('2027-12-20T10:00:00.000Z');
    await s.runBilling();
    const list = await charges(sub.id);
    expect(list.map((c) => [c.periodStart.slice(0, 10), c.status])).toEqual([
      ['2027-05-10', 'succeeded'],
      ['2027-06-10', 'skipped'],
      ['2027-07-10', 'skipped'],
      ['2027-08-10', 'skipped'],
      ['2027-09-10', 'skipped'],
      ['2027-10-10', 'succeeded'],
      ['2027-11-10', 'succeeded'],
      ['2027-12-10', 'succeeded'],
    ]);
    expect(await capturedFor(sub.id)).toBe(4);
    expect((await s.get<{ items: ChargeView[] }>(`/api/v1/charges?status=skipped&subscriptionId=${sub.id}`)).items).toHaveLength(4);

    const events = (await s.get<{ items: { type: string; data: { count?: number } }[] }>(`/api/v1/subscriptions/${sub.id}/events?limit=200`)).items;
    expect(events.filter((e) => e.type === 'periods_skipped').map((e) => e.data.count)).toEqual([4]);
    // Every skipped charge of every subscription is counted by the metric.
    const allSkipped = (await s.get<{ items: ChargeView[] }>('/api/v1/charges?status=skipped&limit=200')).items.length;
    const metrics = await s.api().get('/metrics');
    expect(Number(/billing_periods_skipped_total (\d+)/.exec(metrics.text)?.[1])).toBe(allSkipped);

    // A later pass charges nothing more for those periods.
    await s.runBilling();
    expect(await capturedFor(sub.id)).toBe(4);
    const view = await s.get<{ nextBillingAt: string; status: string }>(`/api/v1/subscriptions/${sub.id}`);
    expect(view).toMatchObject({ status: 'active', nextBillingAt: '2028-01-10T10:00:00.000Z' });
  });
});

describe('a catch-up cap of one', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ BILLING_MAX_CATCH_UP_PERIODS: '1' });
    await s.setClock('2027-05-10T10:00:00.000Z');
  });
  afterAll(() => s?.close());

  it('charges only the newest missed period', async () => {
    const planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'W', product: 'W', currency: 'RUB', interval: 'week', lines: [{ product: 'W', price: 100 }] })).id;
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    await s.setClock('2027-06-01T10:00:00.000Z');
    await s.runBilling();
    const list = (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges?limit=200`)).items;
    expect(list.filter((c) => c.status === 'succeeded')).toHaveLength(2);
    expect(list.filter((c) => c.status === 'skipped')).toHaveLength(2);
  });

  it('bounds the work of a clock moved to 9999-12-31: the newest missed periods become skipped charges, the whole range is in the audit trail', async () => {
    const planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'D', product: 'D', currency: 'RUB', interval: 'day', lines: [{ product: 'D', price: 100 }] })).id;
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    await s.setClock('9999-12-31T00:00:00.000Z');
    const run = await s.api().post('/api/v1/billing/run').send({});
    expect(run.status).toBe(200);

    const list = (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges?limit=200`)).items;
    const skipped = list.filter((c) => c.status === 'skipped').map((c) => c.periodStart).sort();
    expect(skipped).toHaveLength(MAX_SKIPPED_CHARGES_RECORDED);
    expect(skipped[skipped.length - 1]).toBe('9999-12-29T10:00:00.000Z');
    expect(list.filter((c) => c.status !== 'skipped').map((c) => c.periodStart).sort()).toEqual(['2027-06-01T10:00:00.000Z', '9999-12-30T10:00:00.000Z']);

    const events = (await s.get<{ items: { type: string; data: Record<string, unknown> }[] }>(`/api/v1/subscriptions/${sub.id}/events?limit=200`)).items;
    const days = (Date.parse('9999-12-29T10:00:00.000Z') - Date.parse('2027-06-02T10:00:00.000Z')) / 86_400_000 + 1;
    expect(events.filter((e) => e.type === 'periods_skipped').map((e) => e.data)).toEqual([
      expect.objectContaining({ count: days, firstPeriodStart: '2027-06-02T10:00:00.000Z', lastPeriodStart: '9999-12-29T10:00:00.000Z', recordedAsCharges: MAX_SKIPPED_CHARGES_RECORDED }),
    ]);
    const metrics = await s.api().get('/metrics');
    expect(Number(/billing_periods_skipped_total (\d+)/.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(days);
  });
});

describe('a catch-up cap of one, at a period boundary', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ BILLING_MAX_CATCH_UP_PERIODS: '1' });
  });
  afterAll(() => s?.close());

  it('when a period begins at the very instant of the pass and the one before it was missed, charges the one beginning and skips the one before', async () => {
    await s.setClock('2027-06-01T10:00:00.000Z');
    const planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'W2', product: 'W2', currency: 'RUB', interval: 'week', lines: [{ product: 'W2', price: 100 }] })).id;
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string; startAt: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    await s.runBilling();
    const thirdPeriodStart = new Date(new Date(sub.startAt).getTime() + 14 * 86_400_000).toISOString();
    await s.setClock(thirdPeriodStart);
    await s.runBilling();
    const list = (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges?limit=200`)).items;
    const byStart = (status: string) => list.filter((c) => c.status === status).map((c) => c.periodStart).sort();
    expect(byStart('succeeded')).toEqual([sub.startAt, thirdPeriodStart]);
    expect(byStart('skipped')).toEqual([new Date(new Date(sub.startAt).getTime() + 7 * 86_400_000).toISOString()]);
  });
});
