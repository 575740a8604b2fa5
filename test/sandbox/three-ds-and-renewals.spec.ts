import type { CustomerBinding, Payment } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { openAcsPage, redirectOf } from '../support/three-ds-payer';
import { readCustomerEvents, SANDBOX_SUITE_DELAYS, useSandbox, withThreeDsWait } from './support/sandbox-suite';

describe('sandbox: 3-D Secure checks that wait for the payer', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  async function changeTypes(customerID: string): Promise<string[]> {
    return (await readCustomerEvents(sandbox, customerID)).flatMap((e) => e.changes.map((c) => c.changeType));
  }

  it('fails a binding whose check nobody confirms once the wait ends, and the ACS link then opens nothing', async () => {
    const { customer } = await sandbox.createCustomer();
    const { binding, started, final } = await withThreeDsWait(sandbox, 1_000, async () => {
      // Timed from before the binding starts: its wait begins inside the call, and a timer never fires early.
      const startedAt = Date.now();
      const started = await sandbox.startBinding(customer.id, CARDS.threeDsSuccess);
      return { binding: started, started: startedAt, final: await sandbox.finalBinding(customer.id, started.id) };
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(final).toMatchObject({ status: 'failed', error: { code: 'preauthorization_failed', message: '3-D Secure Timeout' } });
    expect(await changeTypes(customer.id)).toEqual(['CustomerBindingStarted', 'CustomerBindingInteractionRequested', 'CustomerBindingStatusChanged']);
    expect((await sandbox.getCustomer(customer.id)).status).toBe('unready');
    expect((await sandbox.openAcs(customer.id, binding.id)).status).toBe(404);
  });

  it('asks "GET ACS" cards for a plain GET redirect that opens the same check', async () => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.startBinding(customer.id, CARDS.threeDsGetAcs);
    const interaction = (await sandbox.interactionOf(customer.id, binding.id))?.userInteraction;
    const request = interaction?.request;
    expect(request?.requestType).toBe('BrowserGetRequest');
    const url = new URL(request?.uriTemplate ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/sandbox/acs`);
    expect(url.searchParams.get('MD')).toBe(binding.id);
    const page = await openAcsPage(redirectOf(interaction!));
    expect(page.html).toContain('>Confirm</button>');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await sandbox.bindCard(customer.id, CARDS.threeDsGetAcs)).status).toBe('succeeded');
  });

  it('opens and confirms a check only with its own secret, and only once', async () => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.startBinding(customer.id, '4929172190150505');
    expect((await sandbox.control.confirmAcs({ MD: binding.id, PaReq: 'guessed' })).status).toBe(404);
    expect((await sandbox.control.openAcsLink(`/sandbox/acs?MD=${binding.id}`)).status).toBe(404);
    const waiting = await sandbox.call<CustomerBinding>('GET', `/v2/processing/customers/${customer.id}/bindings/${binding.id}`);
    expect(waiting.data.status).toBe('pending');

    expect((await sandbox.passThreeDs(customer.id, binding.id))?.status).toBe(200);
    expect((await sandbox.openAcs(customer.id, binding.id)).status).toBe(404);
    expect((await sandbox.finalBinding(customer.id, binding.id)).status).toBe('succeeded');
  });

  it('fails a 3-D Secure failure card once confirmed, as its row says', async () => {
    const { customer } = await sandbox.createCustomer();
    const binding = await sandbox.startBinding(customer.id, CARDS.threeDsFailure);
    const page = await sandbox.passThreeDs(customer.id, binding.id);
    expect(page?.html).toContain('could not be bound: 3-D Secure Failure');
    expect(await sandbox.finalBinding(customer.id, binding.id)).toMatchObject({ status: 'failed', error: { code: 'preauthorization_failed', message: '3-D Secure Failure' } });
  });

  it('never hears back from the issuer of a 3-D Secure timeout card, even once the payer confirms', async () => {
    const { customer } = await sandbox.createCustomer();
    // The suite's wait (a minute) outlasts the payer however busy the machine; once the payer has confirmed, the test
    // ends the wait instead of guessing how long playing the payer takes.
    const binding = await sandbox.startBinding(customer.id, CARDS.threeDsTimeout);
    const page = await sandbox.passThreeDs(customer.id, binding.id);
    expect(page?.html).toContain('The card issuer does not answer');
    expect((await sandbox.call<CustomerBinding>('GET', `/v2/processing/customers/${customer.id}/bindings/${binding.id}`)).data.status).toBe('pending');
    expect(await sandbox.control.expireThreeDs(binding.id)).toBe(1);
    expect(await sandbox.finalBinding(customer.id, binding.id)).toMatchObject({ status: 'failed', error: { code: 'preauthorization_failed', message: '3-D Secure Timeout' } });
    expect(await changeTypes(customer.id)).not.toContain('CustomerBindingInteractionCompleted');
    expect(await sandbox.control.expireThreeDs(binding.id)).toBe(0);
  });

  it('ends the waits of open checks on request: of one binding, or of all', async () => {
    const { customer } = await sandbox.createCustomer();
    const [first, second, third] = [
      await sandbox.startBinding(customer.id, CARDS.threeDsSuccess),
      await sandbox.startBinding(customer.id, CARDS.threeDsSuccess),
      await sandbox.startBinding(customer.id, CARDS.threeDsSuccess),
    ];
    expect(await sandbox.control.expireThreeDs(second.id)).toBe(1);
    expect(await sandbox.finalBinding(customer.id, second.id)).toMatchObject({ status: 'failed', error: { message: '3-D Secure Timeout' } });
    expect((await sandbox.openAcs(customer.id, second.id)).status).toBe(404);
    expect((await sandbox.openAcs(customer.id, first.id)).status).toBe(200);
    expect(await sandbox.control.expireThreeDs()).toBe(2);
    for (const b of [first, third]) expect((await sandbox.finalBinding(customer.id, b.id)).status).toBe('failed');
    for (const bad of ['[]', '{"bindingID": 7}']) {
      expect((await sandbox.control.send('POST', 'expire-three-ds', JSON.parse(bad))).status).toBe(400);
    }
  });

  it('takes its wait from the run-time settings', async () => {
    // The suite's sandbox started with a wait of a minute; set at run time, a second applies to the next check.
    const { customer } = await sandbox.createCustomer();
    const final = await withThreeDsWait(sandbox, 1_000, async () => {
      const binding = await sandbox.startBinding(customer.id, CARDS.threeDsSuccess);
      return sandbox.finalBinding(customer.id, binding.id);
    });
    expect(final).toMatchObject({ status: 'failed', error: { message: '3-D Secure Timeout' } });
    expect((await sandbox.control.send<{ delays: { threeDsTimeoutMs: number } }>('GET', 'config')).data.delays.threeDsTimeoutMs).toBe(SANDBOX_SUITE_DELAYS.threeDsTimeoutMs);
  });
});

describe('sandbox: cards that bind and then decline renewals', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  it.each([
    ['4000000000009995', { code: 'authorization_failed', subError: { code: 'insufficient_funds' } }],
    ['5100000000009991', { code: 'authorization_failed', subError: { code: 'insufficient_funds' } }],
    [
      '4000000000009987',
      { code: 'authorization_failed', subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } } },
    ],
    [
      '5100000000009983',
      { code: 'authorization_failed', subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } } },
    ],
    ['4000000000009979', { code: 'authorization_failed', subError: { code: 'account_stolen' } }],
    ['5100000000009975', { code: 'authorization_failed', subError: { code: 'account_stolen' } }],
  ])('binds %s, then declines every charge on it with %j', async (pan, tree) => {
    const customer = await sandbox.readyCustomer(pan);
    expect(customer.status).toBe('ready');
    for (let attempt = 1; attempt <= 2; attempt++) {
      const { invoice, invoiceAccessToken } = await sandbox.createInvoice();
      await sandbox.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      const payment: Payment = await sandbox.finalPayment(invoice.id, '1');
      expect(payment.status).toBe('failed');
      expect(payment.error).toEqual(tree);
    }
  });

  it('lets a script override them, and a new card then charges normally', async () => {
    const customer = await sandbox.readyCustomer(CARDS.renewalInsufficientFunds);
    await sandbox.control.scriptOutcomes(customer.id, ['success']);
    const first = await sandbox.createInvoice();
    await sandbox.pay(first.invoice.id, first.invoiceAccessToken.payload, customer.id);
    expect((await sandbox.finalPayment(first.invoice.id, '1')).status).toBe('captured');

    expect((await sandbox.bindCard(customer.id, CARDS.success)).status).toBe('succeeded');
    const second = await sandbox.createInvoice();
    await sandbox.pay(second.invoice.id, second.invoiceAccessToken.payload, customer.id);
    expect((await sandbox.finalPayment(second.invoice.id, '1')).status).toBe('captured');
  });
});
