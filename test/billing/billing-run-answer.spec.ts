import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { SandboxControl } from '../support/sandbox-control';
import { CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

const PLAN = { name: 'Run', product: 'Run', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1000 }] };

type Body = Record<string, unknown> & { id: string };

/**
 * `POST /api/v1/billing/run` answers when the work it took is settled or scheduled: a payment the provider decides a
 * moment later (its event arrives ~1 s after the run left it) is waited for, so what the caller reads right after
 * the answer is final. A payment the provider has not decided within the worker's wait is counted `unknown`.
 */
describe('the admin billing run', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  let t: TestApp | undefined;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox({ delays: { bindingMs: 20, paymentMs: 5 } });
    control = new SandboxControl(sandbox.url);
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(() => sandbox?.close());

  async function subscribedReadyCustomer(app: TestApp): Promise<{ subscription: Body }> {
    const created = (await app.api().post('/api/v1/customers').send({}).expect(201)).body as Body;
    const { paymentToolToken, paymentSession } = await app.sandboxClient.cardForBinding(CARDS.success);
    await app.api().post(`/api/v1/customers/${created.id}/bindings`).send({ paymentToolToken, paymentSession }).expect(202);
    await waitFor(async () => (await app.api().post(`/api/v1/customers/${created.id}/refresh`).expect(200)).body as Body, (c) => c.status === 'ready', {
      timeoutMs: 20_000,
      everyMs: 50,
      what: 'customer ready',
    });
    const plan = (await app.api().post('/api/v1/plans').send(PLAN).expect(201)).body as Body;
    const subscription = (await app.api().post('/api/v1/subscriptions').send({ customerId: created.id, planId: plan.id }).expect(201)).body as Body;
    return { subscription };
  }

  it('waits for a payment the provider settles after the pass left it to its webhook, and answers its outcome', async () => {
    t = await startTestApp({ sandbox, env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '3600000' }, providerWebhooksAt: true, billingTuning: { paymentPollMs: 15_000 } });
    // A first charge makes the provider's invoice events flow: from then on an open payment is left to its event.
    await subscribedReadyCustomer(t);
    await t.api().post('/api/v1/billing/run').send({}).expect(200);

    await control.setDelays({ paymentMs: 1_000 });
    const { subscription } = await subscribedReadyCustomer(t);
    const run = (await t.api().post('/api/v1/billing/run').send({}).expect(200)).body as Body;
    // The engine's loop may have taken the new charge before the pass: then it is not the pass's to count, but the
    // answer still waits for it.
    expect(run).toMatchObject({ declined: 0, unknown: 0 });
    expect(((await t.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body as Body).status).toBe('active');
    const charges = (await t.api().get(`/api/v1/charges?subscriptionId=${subscription.id}`).expect(200)).body as { items: Body[] };
    expect(charges.items.map((c) => c.status)).toEqual(['succeeded']);
  });

  it('counts a payment still undecided after the wait as unknown, and settles it in a later pass', async () => {
    t = await startTestApp({ sandbox, billingTuning: { paymentPollMs: 300 } });
    await control.setDelays({ paymentMs: 3_000 });
    const { subscription } = await subscribedReadyCustomer(t);
    const run = (await t.api().post('/api/v1/billing/run').send({}).expect(200)).body as Body;
    expect(run).toMatchObject({ due: 1, succeeded: 0, unknown: 1 });
    await waitFor(
      async () => {
        await t!.api().post('/api/v1/billing/run').send({}).expect(200);
        return ((await t!.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body as Body).status;
      },
      (status) => status === 'active',
      { timeoutMs: 20_000, everyMs: 100, what: 'the charge settled by a later pass' },
    );
    await control.setDelays({ paymentMs: 5 });
  });
});
