import { randomUUID } from 'node:crypto';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { startTestSandbox } from '../support/sandbox-client';
import { SandboxControl } from '../support/sandbox-control';
import { CARD_EXP_DATE, CARDS } from '../support/test-cards';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { createCustomer, getCustomer } from './customer-test-helpers';

interface MerchantEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { object: { id: string; status: string; card: { bin: string; lastDigits: string } | null; pendingBinding: unknown } };
}

/** The daemon's last digits of each test card, as the provider reports them. */
const LAST_DIGITS: Record<string, string> = { [CARDS.success]: '4242', [CARDS.secondSuccess]: '4444' };

/**
 * One `customer.ready` per successful binding, showing that binding's card, through the hosted form and through the
 * merchant's own form, with the provider's customer webhooks on and off: the follower, a refresh and a webhook that
 * read the same binding at the same time record it once; a second card is announced once more, with the new card.
 */
describe('customer.ready: one per binding, with its card', () => {
  let sandbox: SandboxHandle;
  let control: SandboxControl;
  let t: TestApp | undefined;

  beforeAll(async () => {
    // Bindings settle within milliseconds, so the follower's reads race them.
    sandbox = await startTestSandbox({ delays: { bindingMs: 2 } });
    control = new SandboxControl(sandbox.url);
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  async function bindOnHostedForm(customer: { providerCustomerId: string; customerAccessToken: string | null }, cardNumber: string): Promise<void> {
    const page = await control.submitHostedForm({
      customerID: customer.providerCustomerId,
      customerAccessToken: customer.customerAccessToken as string,
      cardNumber,
      expDate: CARD_EXP_DATE,
      cvv: '123',
      cardHolder: 'IVAN PETROV',
      consent: 'yes',
    });
    expect(page.status).toBe(200);
  }

  async function bindOnOwnForm(app: TestApp, customerId: string, cardNumber: string): Promise<void> {
    const card = await app.sandboxClient.cardForBinding(cardNumber);
    // One key for every try: a try cut short cannot start a second binding.
    const key = randomUUID();
    await untilNotBusy(() => app.api().post(`/api/v1/customers/${customerId}/bindings`).set('Idempotency-Key', key).send(card), 202);
  }

  async function readyEvents(app: TestApp): Promise<MerchantEvent[]> {
    const res = await app.api().get('/api/v1/events').query({ type: 'customer.ready', limit: 200 }).expect(200);
    return res.body.items as MerchantEvent[];
  }

  /**
   * A request sent again while it answers 503 "retry shortly", as a client would: on a busy machine (on the embedded
   * database above all, which runs one transaction at a time) the storm of refreshes below can hold every pooled
   * connection past the pool's wait. Another answer than `status` fails with its code.
   */
  async function untilNotBusy(send: () => Promise<{ status: number; body: unknown }>, status: number): Promise<void> {
    for (let tries = 1; ; tries++) {
      const res = await send();
      if (res.status === 503 && tries < 5) continue;
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({ status, code: undefined });
      return;
    }
  }

  /**
   * Reads every customer at the provider once more, many times at once: what a webhook racing the follower does. The
   * refreshes of one customer queue on its row, each holding a pooled connection meanwhile: on a busy machine one may
   * wait past the pool's limit and get 503 "retry shortly", which it does, as a client would.
   */
  async function refreshAll(app: TestApp, ids: string[]): Promise<void> {
    await Promise.all(ids.flatMap((id) => [1, 2, 3].map(() => untilNotBusy(() => app.api().post(`/api/v1/customers/${id}/refresh`).send({}), 200))));
  }

  it.each([
    ['polling only', false],
    ['with the provider webhooks', true],
  ])('%s', async (_name, webhooks) => {
    await resetDatabase();
    t = await startTestApp({ sandbox, env: { SCHEDULER_ENABLED: 'true' }, ...(webhooks ? { providerWebhooksAt: true as const } : {}) });
    const app = t;
    const customers = await Promise.all(Array.from({ length: 8 }, (_, i) => createCustomer(app, { email: `payer${i}@example.com` })));
    const ids = customers.map((c) => c.id);
    // Half on the hosted form, half on the merchant's own form; each binding raced by refreshes while it settles.
    await Promise.all(
      customers.map(async (customer, i) => {
        if (i % 2 === 0) await bindOnHostedForm(customer as never, CARDS.success);
        else await bindOnOwnForm(app, customer.id, CARDS.success);
        await refreshAll(app, [customer.id]);
      }),
    );
    const allHaveCard = (digits: string, of: string[]) => async () => {
      const seen = await Promise.all(of.map((id) => getCustomer(app, id)));
      return seen.every((c) => c.status === 'ready' && (c as { card?: { lastDigits: string } }).card?.lastDigits === digits);
    };
    await waitFor(allHaveCard('4242', ids), Boolean, { timeoutMs: 30_000, everyMs: 50, what: 'every customer ready with its card' });

    // A new card for two of them, one per form: a second binding each.
    const rebound = [customers[0], customers[1]];
    await bindOnHostedForm(rebound[0] as never, CARDS.secondSuccess);
    await bindOnOwnForm(app, rebound[1].id, CARDS.secondSuccess);
    await refreshAll(app, rebound.map((c) => c.id));
    await waitFor(allHaveCard('4444', rebound.map((c) => c.id)), Boolean, { timeoutMs: 30_000, everyMs: 50, what: 'the new cards active' });
    // Everything read again, at once, after the fact: nothing new to announce.
    await refreshAll(app, ids);
    await waitFor(() => readyEvents(app), (events) => events.length >= 10, { timeoutMs: 10_000, what: 'ten customer.ready events' });

    const events = await readyEvents(app);
    const byCustomer = new Map<string, MerchantEvent[]>();
    for (const event of [...events].reverse()) byCustomer.set(event.data.object.id, [...(byCustomer.get(event.data.object.id) ?? []), event]);
    console.log(`customer.ready (${_name}): ${events.length} events for 10 successful bindings, ${events.filter((e) => e.data.object.card === null).length} without a card`);
    const cardsAnnounced = ids.map((id) => (byCustomer.get(id) ?? []).map((e) => e.data.object.card?.lastDigits ?? null));
    expect(cardsAnnounced).toEqual(ids.map((_, i) => (i < 2 ? [LAST_DIGITS[CARDS.success], LAST_DIGITS[CARDS.secondSuccess]] : [LAST_DIGITS[CARDS.success]])));
    for (const event of events) {
      expect(event.data.object).toMatchObject({ status: 'ready', pendingBinding: null });
    }
    // The list (newest first) and the event times agree, per customer and overall.
    const times = events.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
