import { FAST_SANDBOX_DELAYS } from '../support/sandbox-client';
import type { TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { openAcsPage } from '../support/three-ds-payer';
import { bindCard, createCustomer, dataSource, getBinding, getCustomer, passThreeDs, syncUntil, tableText, useCustomersApp } from './customer-test-helpers';

/** How long the provider waits for the payer: as long as a busy machine may take to play one. */
const PAYER_WAIT_MS = 60_000;

describe('3-D Secure in the merchant-form binding flow', () => {
  let testApp: TestApp;
  useCustomersApp((started) => (testApp = started), { sandboxOptions: { delays: { ...FAST_SANDBOX_DELAYS, threeDsTimeoutMs: PAYER_WAIT_MS } } });

  it('shows where to send the payer while the binding waits, and nothing once it has succeeded', async () => {
    const customer = await createCustomer(testApp);
    const accepted = await bindCard(testApp, customer.id, CARDS.threeDsSuccess);
    expect(accepted.status).toBe('pending');

    const asked = await passThreeDs(testApp, customer.id, accepted.id);
    expect(asked).toMatchObject({ id: accepted.id, status: 'pending', source: 'api', errorCode: null });
    expect(asked.interaction).toEqual({
      type: 'redirect',
      method: 'POST',
      url: `${testApp.sandbox.url}/sandbox/acs`,
      form: { PaReq: expect.any(String), MD: asked.providerBindingId, TermUrl: `${testApp.sandbox.url}/sandbox/acs` },
    });

    const { value: ready } = await syncUntil(testApp, async () => {
      const read = await getCustomer(testApp, customer.id);
      return read.status === 'ready' ? read : undefined;
    });
    expect(ready).toMatchObject({ pendingBinding: null, card: { bin: '401288', lastDigits: '1881', paymentSystem: 'visa' } });
    expect(await getBinding(testApp, customer.id, accepted.id)).toMatchObject({ status: 'succeeded', interaction: null });
    const stored = await dataSource(testApp).query<{ interaction: unknown }[]>('SELECT interaction FROM customer_bindings WHERE id = $1', [accepted.id]);
    expect(stored).toEqual([{ interaction: null }]);
  });

  it('shows the pending binding and its redirect on the customer too, as GET for a "GET ACS" card', async () => {
    const customer = await createCustomer(testApp);
    const accepted = await bindCard(testApp, customer.id, CARDS.threeDsGetAcs);
    const { value: waiting } = await syncUntil(testApp, async () => {
      const read = await getCustomer(testApp, customer.id);
      return read.pendingBinding?.interaction ? read : undefined;
    });
    expect(waiting.status).toBe('unready');
    expect(waiting.pendingBinding).toEqual({
      id: accepted.id,
      status: 'pending',
      interaction: { type: 'redirect', method: 'GET', url: expect.stringContaining(`${testApp.sandbox.url}/sandbox/acs?MD=`) },
    });
    const listed = await testApp.api().get('/api/v1/customers').expect(200);
    expect(listed.body.items[0].pendingBinding).toEqual(waiting.pendingBinding);
    const page = await openAcsPage(waiting.pendingBinding!.interaction!);
    expect(page.html).toContain('>Confirm</button>');
    // The redirect holds the provider's own references only: no card number, payment tool token or session.
    expect(await tableText(testApp, 'customer_bindings')).not.toContain(CARDS.threeDsGetAcs);
  });

  it('records the failure of a 3-D Secure failure card once the payer has confirmed, and clears the redirect', async () => {
    const customer = await createCustomer(testApp);
    const accepted = await bindCard(testApp, customer.id, CARDS.threeDsFailure);
    await passThreeDs(testApp, customer.id, accepted.id);
    const { value } = await syncUntil(testApp, async () => {
      const binding = await getBinding(testApp, customer.id, accepted.id);
      return binding.status === 'failed' ? binding : undefined;
    });
    expect(value).toMatchObject({ errorCode: 'preauthorization_failed', interaction: null });
    expect(await getCustomer(testApp, customer.id)).toMatchObject({ status: 'unready', pendingBinding: null });
  });

  it('fails a binding whose payer never confirms once the provider stops waiting, and clears the redirect', async () => {
    const customer = await createCustomer(testApp);
    const accepted = await bindCard(testApp, customer.id, CARDS.threeDsSuccess);
    // The daemon shows the redirect while the provider waits; then the provider's wait ends (the sandbox ends it now,
    // rather than after a time guessed long enough for the follower to have read the redirect on a busy machine).
    const { value: shown } = await syncUntil(testApp, async () => {
      const binding = await getBinding(testApp, customer.id, accepted.id);
      return binding.interaction ? binding : undefined;
    });
    expect(await testApp.sandboxClient.control.expireThreeDs(shown.providerBindingId as string)).toBe(1);
    const { value } = await syncUntil(testApp, async () => {
      const binding = await getBinding(testApp, customer.id, accepted.id);
      return binding.status === 'failed' ? binding : undefined;
    });
    expect(value).toMatchObject({ errorCode: 'preauthorization_failed', interaction: null });
    expect((await getCustomer(testApp, customer.id)).pendingBinding).toBeNull();
  });

  it('answers 404 for an unknown binding and 400 for a binding id that is not a UUID', async () => {
    const customer = await createCustomer(testApp);
    await testApp.api().get(`/api/v1/customers/${customer.id}/bindings/3f1c2a4e-8b7d-4c1a-9e2f-0a1b2c3d4e5f`).expect(404);
    const bad = await testApp.api().get(`/api/v1/customers/${customer.id}/bindings/nope`).expect(400);
    expect(JSON.stringify(bad.body.message)).toContain('bindingId');
  });
});
