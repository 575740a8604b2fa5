import { Scenario } from '../scenarios/support/scenario';
import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { CARDS } from '../support/test-cards';
import { testDatabaseUrl } from '../support/test-database';

interface Charge {
  id: string;
  kind: string;
  status: string;
}

/**
 * Subscription actions sent with an Idempotency-Key whose answer could not be stored: the connection that writes
 * the answer is cut (a proxy between the daemon and PostgreSQL), after the action committed. The repeat the 503
 * asks for must answer what the first request would have answered, not a 409 because the action is already done.
 */
describe('subscription actions whose answer was lost', () => {
  let proxy: PostgresFaultProxy;
  let s: Scenario;
  let planId: string;
  let customerId: string;

  beforeAll(async () => {
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    s = await Scenario.start({}, {}, proxy.urlFor(testDatabaseUrl()));
    await s.setClock('2027-01-01T00:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 3100 }] })).id;
    customerId = (await s.createCustomer()).id;
    await s.bindCard(customerId, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
    await proxy?.close();
  });

  /** POSTs with `key`, the answer's write cut: the action is done, its answer lost. */
  async function withLostAnswer(path: string, body: object, key: string) {
    const cut = proxy.cutBefore(/^UPDATE idempotency_records SET status_code/);
    const first = await s.api().post(path).set('Idempotency-Key', key).send(body);
    await cut;
    expect([first.status, first.body.code]).toEqual([503, 'outcome_unknown']);
    return s.api().post(path).set('Idempotency-Key', key).send(body);
  }

  it('answers a repeated cancel, pause and resume as their first answers, not 409', async () => {
    const paused = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId });
    const pause = await withLostAnswer(`/api/v1/subscriptions/${paused.id}/pause`, {}, 'pause-lost');
    expect([pause.status, pause.body.status]).toEqual([200, 'paused']);
    const resume = await withLostAnswer(`/api/v1/subscriptions/${paused.id}/resume`, {}, 'resume-lost');
    expect([resume.status, resume.body.status]).toEqual([200, 'active']);

    const canceled = await withLostAnswer(`/api/v1/subscriptions/${paused.id}/cancel`, { atPeriodEnd: false }, 'cancel-lost');
    expect([canceled.status, canceled.body.status]).toEqual([200, 'canceled']);
    expect(canceled.body).toEqual(await s.get(`/api/v1/subscriptions/${paused.id}`));
    const trail = await s.get<{ items: { type: string }[] }>(`/api/v1/subscriptions/${paused.id}/events`);
    expect(trail.items.map((e) => e.type).filter((type) => ['paused', 'resumed', 'canceled'].includes(type))).toEqual(['canceled', 'resumed', 'paused']);
  });

  it('answers a repeated change with its figures and its one proration charge, not 409', async () => {
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId, planId });
    await s.runBilling();
    await s.post('/api/v1/test-clock', { advance: '10d' }, 200);
    const preview = await s.post(`/api/v1/subscriptions/${sub.id}/change/preview`, { quantity: 2 }, 200);

    const change = await withLostAnswer(`/api/v1/subscriptions/${sub.id}/change`, { quantity: 2 }, 'change-lost');
    expect(change.status).toBe(200);
    const prorations = (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items.filter((c) => c.kind === 'proration');
    expect(prorations).toHaveLength(1);
    expect(change.body).toEqual({ subscription: await s.get(`/api/v1/subscriptions/${sub.id}`), change: preview, chargeId: prorations[0].id });
    expect(change.body.subscription.quantity).toBe(2);
  });
});
