import { Client } from 'pg';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';
import { testDatabaseUrl } from '../support/test-database';

async function countRows(table: string): Promise<number> {
  const db = new Client({ connectionString: testDatabaseUrl() });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
    return rows[0].n;
  } finally {
    await db.end();
  }
}

describe('subscriptions, charges, billing runs and the test clock over the admin API', () => {
  let s: Scenario;
  let planId: string;
  let trialPlanId: string;
  let customerId: string;

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-05-10T10:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'M', product: 'M', currency: 'RUB', interval: 'month', lines: [{ product: 'M', price: 5000 }] })).id;
    trialPlanId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'T', product: 'T', currency: 'RUB', interval: 'week', trialDays: 14, lines: [{ product: 'T', price: 700 }] })).id;
    const customer = await s.createCustomer();
    customerId = customer.id;
    await s.bindCard(customerId, CARDS.success);
  });

  afterAll(async () => {
    await s.close();
  });

  it.each([
    [{ planId: 'x' }, 'customerId must be a UUID'],
    [{ customerId: 'not-a-uuid', planId: '00000000-0000-4000-8000-000000000000' }, 'customerId must be a UUID'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', planId: 5 }, 'planId must be a UUID'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', planId: '00000000-0000-4000-8000-000000000000', timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', planId: '00000000-0000-4000-8000-000000000000', startAt: 'yesterday' }, 'startAt must be an ISO 8601'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', planId: '00000000-0000-4000-8000-000000000000', metadata: [1] }, 'metadata must be a JSON object'],
    [{ customerId: '00000000-0000-4000-8000-000000000000', planId: '00000000-0000-4000-8000-000000000000', price: 1 }, 'property price should not exist'],
  ])('rejects bad input %j with 400 naming the field, creating nothing', async (body, message) => {
    const before = await countRows('subscriptions');
    const res = await s.api().post('/api/v1/subscriptions').send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.message)).toContain(message);
    expect(await countRows('subscriptions')).toBe(before);
  });

  it('rejects a bad IANA zone with 400 naming timezone', async () => {
    const res = await s.api().post('/api/v1/subscriptions').send({ customerId, planId, timezone: '+03:00' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.message)).toContain('timezone');
  });

  it('answers 404 for unknown customers, plans and subscriptions, 422 for an archived plan, 400 for bad ids', async () => {
    expect((await s.api().post('/api/v1/subscriptions').send({ customerId: '00000000-0000-4000-8000-000000000000', planId })).status).toBe(404);
    expect((await s.api().get('/api/v1/subscriptions/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await s.api().get('/api/v1/subscriptions/nope')).status).toBe(400);
    expect((await s.api().get('/api/v1/charges/nope')).status).toBe(400);
    expect((await s.api().post('/api/v1/charges/00000000-0000-4000-8000-000000000000/retry')).status).toBe(404);
    const archived = await s.post<{ id: string }>('/api/v1/plans', { name: 'Old', product: 'Old', currency: 'RUB', interval: 'month', lines: [{ product: 'o', price: 1 }] });
    await s.post(`/api/v1/plans/${archived.id}/archive`, {}, 200);
    expect((await s.api().post('/api/v1/subscriptions').send({ customerId, planId: archived.id })).status).toBe(422);
  });

  it('refuses every route without the right token', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/subscriptions'],
      ['post', '/api/v1/subscriptions'],
      ['get', '/api/v1/charges'],
      ['post', '/api/v1/billing/run'],
      ['get', '/api/v1/test-clock'],
    ] as const) {
      const anon = await s.api()[method](path).set('Authorization', '');
      expect(anon.status).toBe(401);
      const wrong = await s.api()[method](path).set('Authorization', 'Bearer not-the-token');
      expect(wrong.status).toBe(401);
    }
  });

  it('runs a trial, charges at its end, and keeps an audit trail of every change', async () => {
    const sub = await s.post<{ id: string; status: string; trialEndsAt: string; nextBillingAt: string }>('/api/v1/subscriptions', {
      customerId,
      planId: trialPlanId,
      metadata: { seat: 'A1' },
    });
    expect(sub.status).toBe('trialing');
    expect(sub.trialEndsAt).toBe('2027-05-24T10:00:00.000Z');
    expect(sub.nextBillingAt).toBe(sub.trialEndsAt);
    await s.runBilling();
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items).toHaveLength(0);

    await s.setClock('2027-05-24T10:00:00.000Z');
    await s.runBilling();
    const charges = (await s.get<{ items: { status: string; periodStart: string; periodEnd: string }[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ status: 'succeeded', periodStart: '2027-05-24T10:00:00.000Z', periodEnd: '2027-05-31T10:00:00.000Z' });
    const view = await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`);
    expect(view.status).toBe('active');
    const events = (await s.get<{ items: { type: string }[] }>(`/api/v1/subscriptions/${sub.id}/events`)).items.map((e) => e.type).reverse();
    expect(events).toEqual(['created', 'trial_ended', 'period_billed', 'charge_succeeded']);
  });

  it('cancels at period end by default: the paid period runs out, nothing more is charged', async () => {
    await s.setClock('2027-06-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId });
    await s.runBilling();
    const canceled = await s.post<{ status: string; cancelAtPeriodEnd: boolean }>(`/api/v1/subscriptions/${sub.id}/cancel`, {}, 200);
    expect(canceled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    await s.setClock('2027-07-02T00:00:00.000Z');
    await s.runBilling();
    const view = await s.get<{ status: string; canceledAt: string }>(`/api/v1/subscriptions/${sub.id}`);
    expect(view).toMatchObject({ status: 'canceled', canceledAt: '2027-07-01T00:00:00.000Z' });
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items).toHaveLength(1);
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/cancel`).send({ atPeriodEnd: false })).status).toBe(409);
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/cancel`).send({ atPeriodEnd: 'yes' })).status).toBe(400);
  });

  it('pauses without charging and resumes on the original schedule', async () => {
    await s.setClock('2027-08-15T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId });
    await s.runBilling();
    await s.post(`/api/v1/subscriptions/${sub.id}/pause`, {}, 200);
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/pause`)).status).toBe(409);
    await s.setClock('2027-10-20T00:00:00.000Z');
    await s.runBilling();
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items).toHaveLength(1);
    const resumed = await s.post<{ status: string; nextBillingAt: string }>(`/api/v1/subscriptions/${sub.id}/resume`, {}, 200);
    expect(resumed).toMatchObject({ status: 'active', nextBillingAt: '2027-11-15T00:00:00.000Z' });
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/resume`)).status).toBe(409);
  });

  it('shows the period it is in right after a resume: the one that ends at the next billing (skipped, unbilled)', async () => {
    await s.setClock('2028-01-10T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId });
    await s.runBilling();
    const paid = { currentPeriodStart: '2028-01-10T00:00:00.000Z', currentPeriodEnd: '2028-02-10T00:00:00.000Z' };
    expect(await s.post(`/api/v1/subscriptions/${sub.id}/pause`, {}, 200)).toMatchObject(paid);

    // Resumed inside the paid period: nothing was skipped, the period shown stays.
    await s.setClock('2028-01-20T00:00:00.000Z');
    expect(await s.post(`/api/v1/subscriptions/${sub.id}/resume`, {}, 200)).toMatchObject({ ...paid, nextBillingAt: paid.currentPeriodEnd });

    // Paused over two boundaries: the period shown is the one now running (Mar 10 to Apr 10), never billed.
    await s.post(`/api/v1/subscriptions/${sub.id}/pause`, {}, 200);
    await s.setClock('2028-03-25T00:00:00.000Z');
    const resumed = { status: 'active', currentPeriodStart: '2028-03-10T00:00:00.000Z', currentPeriodEnd: '2028-04-10T00:00:00.000Z', nextBillingAt: '2028-04-10T00:00:00.000Z' };
    expect(await s.post(`/api/v1/subscriptions/${sub.id}/resume`, {}, 200)).toMatchObject(resumed);
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject(resumed);
    await s.runBilling();
    expect((await s.get<{ items: unknown[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items).toHaveLength(1);

    // Billing goes on from there on the original schedule.
    await s.setClock('2028-04-10T00:00:00.000Z');
    await s.runBilling();
    expect(await s.get(`/api/v1/subscriptions/${sub.id}`)).toMatchObject({
      currentPeriodStart: '2028-04-10T00:00:00.000Z',
      currentPeriodEnd: '2028-05-10T00:00:00.000Z',
      nextBillingAt: '2028-05-10T00:00:00.000Z',
    });
  });

  it('lists with filters and paging', async () => {
    const page = await s.get<{ items: { customerId: string; status: string }[]; nextCursor: string | null }>(`/api/v1/subscriptions?customerId=${customerId}&limit=2`);
    expect(page.items).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const next = await s.get<{ items: unknown[] }>(`/api/v1/subscriptions?customerId=${customerId}&limit=2&cursor=${page.nextCursor}`);
    expect(next.items.length).toBeGreaterThan(0);
    expect((await s.api().get('/api/v1/subscriptions?status=sleeping')).status).toBe(400);
    expect((await s.api().get('/api/v1/subscriptions?limit=500')).status).toBe(400);
    const canceled = await s.get<{ items: { status: string }[] }>('/api/v1/subscriptions?status=canceled');
    expect(canceled.items.every((x) => x.status === 'canceled')).toBe(true);
  });

  it('refuses to retry a succeeded charge (409)', async () => {
    const charges = await s.get<{ items: { id: string; status: string }[] }>('/api/v1/charges?status=succeeded&limit=1');
    expect((await s.api().post(`/api/v1/charges/${charges.items[0].id}/retry`)).status).toBe(409);
  });

  it('moves the shared test clock only forward and validates its input', async () => {
    const now = await s.get<{ now: string }>('/api/v1/test-clock');
    expect((await s.api().post('/api/v1/test-clock').send({ now: '2020-01-01T00:00:00.000Z' })).status).toBe(409);
    expect((await s.api().post('/api/v1/test-clock').send({ advance: 'soon' })).status).toBe(400);
    expect((await s.api().post('/api/v1/test-clock').send({})).status).toBe(400);
    expect((await s.api().post('/api/v1/test-clock').send({ now: now.now, advance: '1d' })).status).toBe(400);
    const moved = await s.post<{ now: string }>('/api/v1/test-clock', { advance: '1d' }, 200);
    expect(Date.parse(moved.now) - Date.parse(now.now)).toBe(86_400_000);
  });

  it('refuses fields on actions that take no body, and bad list filters, changing nothing', async () => {
    const sub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', { customerId, planId });
    const before = await countRows('subscription_events');
    expect((await s.api().post(`/api/v1/subscriptions/${sub.id}/pause`).send({ until: 'tomorrow' })).status).toBe(400);
    expect((await s.api().post('/api/v1/billing/run').send({ dryRun: true })).status).toBe(400);
    expect((await s.api().get('/api/v1/charges?status=lost')).status).toBe(400);
    expect((await s.api().get('/api/v1/charges?subscriptionId=12')).status).toBe(400);
    expect((await s.api().get('/api/v1/charges?limit=0')).status).toBe(400);
    expect((await s.api().get('/api/v1/charges?cursor=%24%24')).status).toBe(400);
    expect((await s.get<{ status: string }>(`/api/v1/subscriptions/${sub.id}`)).status).toBe(sub.status);
    expect(await countRows('subscription_events')).toBe(before);
  });

  it('answers a billing run with its counts', async () => {
    const result = await s.post<Record<string, number>>('/api/v1/billing/run', {}, 200);
    expect(Object.keys(result).sort()).toEqual(['created', 'declined', 'due', 'failedSubscriptions', 'skippedNotReady', 'succeeded', 'unknown', 'waitingForAllowedHours', 'waitingForAttemptCap']);
  });
});
