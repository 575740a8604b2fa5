import type { TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import {
  bindCard,
  createCustomer,
  dataSource,
  getCustomer,
  listBindings,
  passThreeDs,
  syncUntil,
  syncUntilBindingsSettled,
  tableText,
  useCustomersApp,
} from './customer-test-helpers';

describe('Card bindings and the follower', () => {
  let testApp: TestApp;
  useCustomersApp((started) => (testApp = started));

  const nextSyncAt = async (customerId: string): Promise<Date | null> =>
    (await dataSource(testApp).query<{ next_sync_at: Date | null }[]>('SELECT next_sync_at FROM customers WHERE id = $1', [customerId]))[0].next_sync_at;

  it('binds a card from the merchant form: 202 pending, then ready with the card once the follower has looked', async () => {
    const customer = await createCustomer(testApp, { email: 'payer@example.com' });
    const accepted = await bindCard(testApp, customer.id, CARDS.success);
    expect(accepted).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'pending' });

    const { value: ready, totals } = await syncUntil(testApp, async () => {
      const read = await getCustomer(testApp, customer.id);
      return read.status === 'ready' ? read : undefined;
    });
    expect(totals.becameReady).toBe(1);
    expect(ready.card).toEqual({ bin: '424242', lastDigits: '4242', paymentSystem: 'visa' });
    expect(ready.readyAt).toEqual(expect.any(String));

    const [binding] = await listBindings(testApp, customer.id);
    expect(binding).toMatchObject({ id: accepted.id, customerId: customer.id, source: 'api', status: 'succeeded', errorCode: null });
    expect(binding.providerBindingId).toEqual(expect.any(String));
    expect(JSON.stringify(binding)).not.toMatch(/paymentToolToken|paymentSession/);

    // The provider saw one binding carrying our externalID.
    const atProvider = await testApp.sandboxClient.bindings(customer.providerCustomerId);
    expect(atProvider.map((b) => b.externalID)).toEqual([`b${accepted.id.replace(/-/g, '')}`]);

    // Nothing left to learn: the follower stops following it.
    expect(await nextSyncAt(customer.id)).toBeNull();
    // No card number, token or session anywhere.
    const stored = `${await tableText(testApp, 'customers')}\n${await tableText(testApp, 'customer_bindings')}`;
    expect(stored).not.toContain(CARDS.success);
    expect(stored).not.toContain(atProvider[0].paymentResource.paymentToolToken);
    expect(stored).not.toContain(atProvider[0].paymentResource.paymentSession);
    expect(JSON.stringify(ready)).not.toContain(CARDS.success);

    const metrics = await testApp.api().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/billing_customers_synced_total\{result="became_ready"\} [1-9]/);
  });

  it.each([
    ['insufficient funds', CARDS.insufficientFunds],
    ['3-D Secure failure', CARDS.threeDsFailure],
  ])('records a failed binding (%s) with its code and keeps the customer unready', async (_name, card) => {
    const customer = await createCustomer(testApp);
    const accepted = await bindCard(testApp, customer.id, card);
    // The 3-D Secure card fails once the payer has confirmed at the issuer's page.
    if (card === CARDS.threeDsFailure) await passThreeDs(testApp, customer.id, accepted.id);

    const [binding] = await syncUntilBindingsSettled(testApp, customer.id, 1);
    expect(binding).toMatchObject({ id: accepted.id, status: 'failed', errorCode: expect.stringMatching(/_failed$/) });

    const read = await getCustomer(testApp, customer.id);
    expect(read).toMatchObject({ status: 'unready', card: null, readyAt: null });
    // Still unready: the follower keeps looking (the payer may try another card).
    expect(await nextSyncAt(customer.id)).not.toBeNull();
  });

  it('makes the newest successful binding the active card', async () => {
    const customer = await createCustomer(testApp);
    await bindCard(testApp, customer.id, CARDS.success);
    await syncUntil(testApp, async () => (await getCustomer(testApp, customer.id)).card?.lastDigits === '4242');
    const firstReadyAt = (await getCustomer(testApp, customer.id)).readyAt;

    // A failing card does not replace it.
    await bindCard(testApp, customer.id, CARDS.insufficientFunds);
    await syncUntilBindingsSettled(testApp, customer.id, 2);
    expect((await getCustomer(testApp, customer.id)).card).toEqual({ bin: '424242', lastDigits: '4242', paymentSystem: 'visa' });

    const second = await bindCard(testApp, customer.id, CARDS.secondSuccess);
    const { value } = await syncUntil(testApp, async () => {
      const read = await getCustomer(testApp, customer.id);
      return read.card?.lastDigits === '4444' ? read : undefined;
    });
    expect(value.card).toEqual({ bin: '555555', lastDigits: '4444', paymentSystem: 'mastercard' });
    expect(value.status).toBe('ready');
    expect(value.readyAt).toBe(firstReadyAt);

    const rows = await dataSource(testApp).query<{ active_binding_id: string }[]>('SELECT active_binding_id FROM customers WHERE id = $1', [customer.id]);
    const secondRow = (await listBindings(testApp, customer.id)).find((b) => b.id === second.id);
    expect(rows[0].active_binding_id).toBe(secondRow?.providerBindingId);
  });

  it('finds a binding made through the hosted payment form on its own', async () => {
    const customer = await createCustomer(testApp);
    const form = await testApp.sandboxClient.control.submitHostedForm({
      customerID: customer.providerCustomerId,
      customerAccessToken: customer.customerAccessToken ?? '',
      cardNumber: CARDS.success,
      expDate: '12/30',
      cvv: '123',
      cardHolder: 'TEST',
      consent: 'on',
    });
    expect(form.status).toBe(200);

    const { value } = await syncUntil(testApp, async () => {
      const read = await getCustomer(testApp, customer.id);
      return read.status === 'ready' ? read : undefined;
    });
    expect(value.card).toEqual({ bin: '424242', lastDigits: '4242', paymentSystem: 'visa' });
    const bindings = await listBindings(testApp, customer.id);
    expect(bindings).toHaveLength(1);
    expect(bindings[0]).toMatchObject({ source: 'hosted_form', status: 'succeeded' });
    const externalIds = await dataSource(testApp).query<{ external_id: string | null }[]>('SELECT external_id FROM customer_bindings');
    expect(externalIds).toEqual([{ external_id: null }]);
  });

  it('refresh reads the provider at once and answers the customer', async () => {
    const customer = await createCustomer(testApp);
    const unchanged = await testApp.api().post(`/api/v1/customers/${customer.id}/refresh`).expect(200);
    expect(unchanged.body).toMatchObject({ id: customer.id, status: 'unready', card: null });
    expect(unchanged.body).not.toHaveProperty('customerAccessToken');

    await bindCard(testApp, customer.id, CARDS.success);
    const body = await waitFor(
      async () => (await testApp.api().post(`/api/v1/customers/${customer.id}/refresh`).expect(200)).body as { status: string; card: unknown },
      (refreshed) => refreshed.status === 'ready',
      { timeoutMs: 60_000, everyMs: 50, what: 'the customer ready on refresh' },
    );
    expect(body).toMatchObject({ status: 'ready', card: { bin: '424242', lastDigits: '4242', paymentSystem: 'visa' } });
    expect(await nextSyncAt(customer.id)).toBeNull();
  });

  it('passes a refused payment tool on as 422 with the provider code, keeping no binding and the customer as it was', async () => {
    const customer = await createCustomer(testApp);
    // A follow-up far ahead, so a refused binding that leaves its early look behind would show.
    await dataSource(testApp).query(`UPDATE customers SET next_sync_at = now() + interval '1 hour' WHERE id = $1`, [customer.id]);
    const before = await dataSource(testApp).query('SELECT * FROM customers WHERE id = $1', [customer.id]);
    const response = await testApp
      .api()
      .post(`/api/v1/customers/${customer.id}/bindings`)
      .send({ paymentToolToken: 'not-a-real-token', paymentSession: 'not-a-session' })
      .expect(422);
    expect(response.body).toMatchObject({ statusCode: 422, providerCode: 'invalidPaymentToolToken' });
    expect(JSON.stringify(response.body)).not.toContain('not-a-real-token');
    expect(await listBindings(testApp, customer.id)).toEqual([]);
    expect(await dataSource(testApp).query('SELECT * FROM customers WHERE id = $1', [customer.id])).toEqual(before);
  });

  it('refuses a session that does not belong to the token with 422, keeping no binding', async () => {
    const customer = await createCustomer(testApp);
    const tool = await testApp.sandboxClient.tokenize(CARDS.success);
    const response = await testApp
      .api()
      .post(`/api/v1/customers/${customer.id}/bindings`)
      .send({ paymentToolToken: tool.paymentToolToken, paymentSession: 'another-session' })
      .expect(422);
    expect(response.body.providerCode).toBe('invalidPaymentSession');
    expect(await listBindings(testApp, customer.id)).toEqual([]);
  });

  it.each([
    ['a missing paymentToolToken', { paymentSession: 's' }, 'paymentToolToken'],
    ['a missing paymentSession', { paymentToolToken: 't' }, 'paymentSession'],
    ['an empty paymentToolToken', { paymentToolToken: '', paymentSession: 's' }, 'paymentToolToken'],
    ['a paymentToolToken over 2000 characters', { paymentToolToken: 't'.repeat(2001), paymentSession: 's' }, 'paymentToolToken'],
    ['a paymentSession over 1000 characters', { paymentToolToken: 't', paymentSession: 's'.repeat(1001) }, 'paymentSession'],
    ['an unknown field (a card number)', { paymentToolToken: 't', paymentSession: 's', cardNumber: CARDS.success }, 'cardNumber'],
  ])('refuses a binding with %s: 400 naming the field, nothing started', async (_case, body, field) => {
    const customer = await createCustomer(testApp);
    const response = await testApp.api().post(`/api/v1/customers/${customer.id}/bindings`).send(body).expect(400);
    expect(JSON.stringify(response.body.message)).toContain(field);
    expect(JSON.stringify(response.body)).not.toContain(CARDS.success);
    expect(await listBindings(testApp, customer.id)).toEqual([]);
    expect(await testApp.sandboxClient.bindings(customer.providerCustomerId)).toEqual([]);
  });
});
