import request from 'supertest';
import { CustomerSyncService } from '../../src/customers/customer-sync.service';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { startTestApp, TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { ActionRequired, ChargeView, EXPIRED, NOON_IN_MOSCOW, pathOf } from './recovery-story';

/** Three daemons on one database, as behind a load balancer: a link minted on one works on every other. */
describe('recovery links under three replicas', () => {
  let sandbox: SandboxHandle;
  const replicas: TestApp[] = [];

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ shopId: SANDBOX_SHOP_ID });
    for (let i = 0; i < 3; i++) replicas.push(await startTestApp({ sandbox, env: { TEST_CLOCK: 'true', LOG_LEVEL: 'warn' } }));
    await replicas[0].api().post('/api/v1/test-clock').send({ now: NOON_IN_MOSCOW }).expect(200);
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await sandbox?.close();
  });

  const get = async <T>(replica: TestApp, path: string): Promise<T> => (await replica.api().get(path).expect(200)).body as T;

  async function bind(replica: TestApp, customerId: string, card: string): Promise<void> {
    const binding = (await replica.api().post(`/api/v1/customers/${customerId}/bindings`).send(await replica.sandboxClient.cardForBinding(card)).expect(202)).body;
    await waitFor(
      async () => {
        await replica.app.get(CustomerSyncService).syncDue();
        return (await get<{ items: { id: string; status: string }[] }>(replica, `/api/v1/customers/${customerId}/bindings`)).items.find((b) => b.id === binding.id)?.status;
      },
      (status) => status === 'succeeded',
      { timeoutMs: 60_000, what: 'the binding settled' },
    );
  }

  it('serves a link minted on one replica from the others, and the charge is paid once', async () => {
    const [a, b, c] = replicas;
    const plan = (await a.api().post('/api/v1/plans').send({ name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] }).expect(201)).body;
    const customer = (await a.api().post('/api/v1/customers').send({ email: 'replicas@example.com' }).expect(201)).body;
    await bind(a, customer.id, CARDS.success);
    await a.sandboxClient.control.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    const sub = (await a.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' }).expect(201)).body;
    await a.api().post('/api/v1/billing/run').send({}).expect(200);
    const [charge] = (await get<{ items: ChargeView[] }>(a, `/api/v1/subscriptions/${sub.id}/charges`)).items;
    const [event] = (await get<{ items: ActionRequired[] }>(b, '/api/v1/events?type=charge.action_required')).items.filter((e) => e.data.object.id === charge.id);
    const path = pathOf(event.data.recoveryUrl as string);

    // Minted on A (in its settling transaction): B and C show it, and C's button sends the customer to the form.
    for (const replica of [a, b, c]) expect((await request(replica.app.getHttpServer()).get(path)).status).toBe(200);
    const checkout = await request(c.app.getHttpServer()).post(path);
    expect(checkout.status).toBe(303);
    expect(new URL(checkout.headers.location as string).searchParams.get('customerID')).toBe(customer.providerCustomerId);

    // A fresh link minted on B revokes A's link on every replica.
    const fresh = (await b.api().post(`/api/v1/charges/${charge.id}/recovery-link`).send({}).expect(200)).body;
    for (const replica of [a, b, c]) {
      expect((await request(replica.app.getHttpServer()).get(path)).status).toBe(410);
      expect((await request(replica.app.getHttpServer()).get(pathOf(fresh.url as string))).status).toBe(200);
    }

    // The new card binds through C; every replica runs billing at once: one payment.
    await bind(c, customer.id, CARDS.secondSuccess);
    await Promise.all(replicas.map((replica) => replica.api().post('/api/v1/billing/run').send({}).expect(200)));
    const paid = await waitFor(
      async () => {
        await Promise.all(replicas.map((replica) => replica.api().post('/api/v1/billing/run').send({}).expect(200)));
        return get<ChargeView>(b, `/api/v1/charges/${charge.id}`);
      },
      (ch) => ch.status === 'succeeded',
      { timeoutMs: 60_000, what: 'the charge paid with the new card' },
    );
    expect(paid.attempts.map((attempt) => attempt.status)).toEqual(['declined', 'succeeded']);
    const { payments } = await a.sandboxClient.control.ledger();
    expect(payments.filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId)).toHaveLength(1);
    for (const replica of [a, b, c]) expect((await request(replica.app.getHttpServer()).get(pathOf(fresh.url as string))).status).toBe(410);
    expect((await get<{ status: string }>(c, `/api/v1/subscriptions/${sub.id}`)).status).toBe('active');
  });
});
