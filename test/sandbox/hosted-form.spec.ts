import { SANDBOX_API_KEY } from '../../src/config/load-config';
import type { CustomerEvent } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARD_EXP_DATE, CARDS } from '../support/test-cards';
import { acsField } from '../support/three-ds-payer';
import { useSandbox } from './support/sandbox-suite';

describe('sandbox: hosted payment form', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  const openForm = (customerID: string, token: string) => sandbox.control.openHostedForm(customerID, token);
  const submit = (fields: Record<string, string>) => sandbox.control.submitHostedForm(fields);

  async function fields(cardNumber: string, extra: Record<string, string> = {}): Promise<{ customerID: string; form: Record<string, string> }> {
    const { customer, customerAccessToken } = await sandbox.createCustomer();
    return {
      customerID: customer.id,
      form: { customerID: customer.id, customerAccessToken: customerAccessToken.payload, cardNumber, expDate: CARD_EXP_DATE, cvv: '123', cardHolder: 'JOHN DOE', consent: 'yes', ...extra },
    };
  }

  it('shows a card form with a consent checkbox to the holder of the customer access token', async () => {
    const { customer, customerAccessToken } = await sandbox.createCustomer();
    const res = await openForm(customer.id, customerAccessToken.payload);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const name of ['cardNumber', 'expDate', 'cvv', 'cardHolder', 'consent']) expect(res.data).toContain(`name="${name}"`);
    expect(res.data).toContain('type="checkbox"');
    expect(res.data).toContain(customer.id);
    expect(res.data).toContain('no real money moves');
  });

  it('cannot be framed, posts only to itself, runs no script, and allows its own style by nonce', async () => {
    const { customer, customerAccessToken } = await sandbox.createCustomer();
    const res = await openForm(customer.id, customerAccessToken.payload);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('script-src');
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(res.data).toContain(`<style nonce="${nonce}">`);
  });

  it('listens on the loopback interface only', () => {
    expect(new URL(sandbox.url).hostname).toBe('127.0.0.1');
  });

  it.each([
    ['a made-up token', async () => ({ id: (await sandbox.createCustomer()).customer.id, token: 'made-up' })],
    [
      "another customer's token",
      async () => {
        const a = await sandbox.createCustomer();
        const b = await sandbox.createCustomer();
        return { id: a.customer.id, token: b.customerAccessToken.payload };
      },
    ],
    ['the API key', async () => ({ id: (await sandbox.createCustomer()).customer.id, token: SANDBOX_API_KEY })],
  ])('answers the form with 401 for %s', async (_label, make) => {
    const { id, token } = await make();
    const res = await openForm(id, token);
    expect(res.status).toBe(401);
    expect(res.data).not.toContain('name="cardNumber"');
  });

  it('binds a success card exactly as operation 3 does: the customer becomes ready', async () => {
    const { customerID, form } = await fields('4242 4242 4242 4242');
    const res = await submit(form);
    expect(res.status).toBe(200);
    expect(res.data).toContain('The card ending 4242 is bound');
    expect(res.data).not.toContain('4242 4242 4242 4242');
    expect((await sandbox.getCustomer(customerID)).status).toBe('ready');
    const events = (await sandbox.call<CustomerEvent[]>('GET', `/v2/processing/customers/${customerID}/events?limit=10`)).data;
    expect(events.flatMap((e) => e.changes.map((c) => c.changeType))).toEqual(['CustomerBindingStarted', 'CustomerBindingStatusChanged']);
    expect((await sandbox.control.ledger()).bindingCharges).toEqual([expect.objectContaining({ customerID, amount: 1000, currency: 'RUB', refunded: true })]);
  });

  it('reports a declined card and leaves the customer unready', async () => {
    const { customerID, form } = await fields(CARDS.insufficientFunds);
    const res = await submit(form);
    expect(res.status).toBe(200);
    expect(res.data).toContain('could not be bound: Insufficient Funds');
    expect((await sandbox.getCustomer(customerID)).status).toBe('unready');
  });

  it('refuses to bind without the payer consent', async () => {
    const { customerID, form } = await fields(CARDS.success);
    delete form.consent;
    const res = await submit(form);
    expect(res.status).toBe(400);
    expect(res.data).toContain('accept the terms');
    const bindings = await sandbox.call<unknown[]>('GET', `/v2/processing/customers/${customerID}/bindings`);
    expect(bindings.data).toEqual([]);
  });

  it('shows the tokenizer error for invalid card data', async () => {
    const { customerID, form } = await fields(CARDS.badChecksum);
    const res = await submit(form);
    expect(res.status).toBe(400);
    expect(res.data).toContain('Invalid cardNumber checksum');
    expect((await sandbox.call<unknown[]>('GET', `/v2/processing/customers/${customerID}/bindings`)).data).toEqual([]);
  });

  it('answers a submission with a wrong or expired token with 401 and binds nothing', async () => {
    const { customerID, form } = await fields(CARDS.success);
    expect((await submit({ ...form, customerAccessToken: 'made-up' })).status).toBe(401);
    await sandbox.control.expireTokens();
    expect((await submit(form)).status).toBe(401);
    expect((await openForm(customerID, form.customerAccessToken)).status).toBe(401);
    expect((await sandbox.call<unknown[]>('GET', `/v2/processing/customers/${customerID}/bindings`)).data).toEqual([]);
  });

  it('sends the payer of a 3-D Secure card on to the check, which binds the card once confirmed', async () => {
    const { customerID, form } = await fields(CARDS.threeDsSuccess);
    const res = await sandbox.control.submitHostedForm(form, { followRedirects: false });
    expect(res.status).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/sandbox\/acs\?MD=/);
    expect((await sandbox.getCustomer(customerID)).status).toBe('unready');

    const acs = await sandbox.control.openAcsLink(location);
    expect(acs.data).toContain('card ending 1881');
    expect(acs.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const confirmed = await sandbox.control.confirmAcs({ MD: acsField(acs.data, 'MD'), PaReq: acsField(acs.data, 'PaReq'), password: '****' });
    expect(confirmed.data).toContain('The card ending 1881 is bound');
    expect((await sandbox.getCustomer(customerID)).status).toBe('ready');
  });

  it('says what is missing when a link names the customer but carries no token', async () => {
    const { customer } = await sandbox.createCustomer();
    const res = await sandbox.control.openHostedForm(customer.id);
    expect(res.status).toBe(401);
    expect(res.data).toContain('carries no customer access token');
    expect(res.data).not.toContain('name="cardNumber"');
  });

  it('answers an ACS link that names no waiting check with 404', async () => {
    const res = await sandbox.control.submitAcsPage('PaReq=x&MD=y');
    expect(res.status).toBe(404);
    expect(res.data).toContain('No 3-D Secure check');
  });
});
