import request from 'supertest';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { openLink } from '../support/three-ds-payer';
import { createCustomer, tableText, useCustomersApp } from './customer-test-helpers';

describe('Customer access tokens and the hosted form link (built-in sandbox)', () => {
  let testApp: TestApp;
  useCustomersApp((started) => (testApp = started));

  it('links the created customer to the hosted form; the link in the create answer alone carries the token', async () => {
    const created = await createCustomer(testApp, { email: 'payer@example.com' });
    const token = created.customerAccessToken as string;
    const link = new URL(created.hostedFormUrl as string);
    expect(`${link.origin}${link.pathname}`).toBe(`${testApp.sandbox.url}/sandbox/hosted-form`);
    expect(Object.fromEntries(link.searchParams)).toEqual({ customerID: created.providerCustomerId, customerAccessToken: token });
    const form = await openLink(link.toString());
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="cardNumber"');

    // Reads show the link without the token: opening it says what is missing instead of showing the form.
    const read = await testApp.api().get(`/api/v1/customers/${created.id}`).expect(200);
    expect(read.body.hostedFormUrl).toBe(`${testApp.sandbox.url}/sandbox/hosted-form?customerID=${created.providerCustomerId}`);
    const listed = await testApp.api().get('/api/v1/customers').expect(200);
    expect(listed.body.items[0].hostedFormUrl).toBe(read.body.hostedFormUrl);
    const bare = await openLink(read.body.hostedFormUrl as string);
    expect(bare.status).toBe(401);
    expect(bare.html).toContain('customerAccessToken');
    expect(bare.html).not.toContain('name="cardNumber"');
  });

  it('issues a new token on request: a working link, nothing stored, earlier links still valid', async () => {
    const created = await createCustomer(testApp);
    const issued = await testApp.api().post(`/api/v1/customers/${created.id}/access-token`).expect(201);
    expect(issued.body).toEqual({ customerAccessToken: expect.any(String), hostedFormUrl: expect.any(String) });
    const token = issued.body.customerAccessToken as string;
    expect(token).not.toBe(created.customerAccessToken);
    expect(new URL(issued.body.hostedFormUrl as string).searchParams.get('customerAccessToken')).toBe(token);
    expect((await openLink(issued.body.hostedFormUrl as string)).status).toBe(200);
    expect((await openLink(created.hostedFormUrl as string)).status).toBe(200);

    // One provider call with the API key, to the provider's own route.
    const [call] = (await testApp.sandboxClient.control.requests('createCustomerAccessToken')).slice(-1);
    expect([call.method, call.path]).toEqual(['POST', `/v2/processing/customers/${created.providerCustomerId}/access-tokens`]);
    for (const table of ['customers', 'customer_bindings', 'idempotency_records'] as const) {
      expect(await tableText(testApp, table)).not.toContain(token);
    }
  });

  it('answers a replayed create with a null token, tells how to get a new one, and stores no token anywhere', async () => {
    const key = `replay-${Date.now()}`;
    const first = await testApp.api().post('/api/v1/customers').set('Idempotency-Key', key).send({ email: 'replay@example.com' }).expect(201);
    const token = first.body.customerAccessToken as string;
    expect(first.body.customerAccessTokenRenewal).toBe(`POST /api/v1/customers/${first.body.id as string}/access-token`);

    const replay = await testApp.api().post('/api/v1/customers').set('Idempotency-Key', key).send({ email: 'replay@example.com' }).expect(201);
    expect(replay.body).toMatchObject({
      id: first.body.id,
      customerAccessToken: null,
      customerAccessTokenRenewal: first.body.customerAccessTokenRenewal,
      hostedFormUrl: `${testApp.sandbox.url}/sandbox/hosted-form?customerID=${first.body.providerCustomerId as string}`,
    });
    expect(JSON.stringify(replay.body)).not.toContain(token);
    expect(await tableText(testApp, 'idempotency_records')).not.toContain(token);

    // Following the hint gives the payer a working link again.
    const renewed = await testApp.api().post(`/api/v1/customers/${first.body.id as string}/access-token`).expect(201);
    expect((await openLink(renewed.body.hostedFormUrl as string)).status).toBe(200);
  });

  it('answers 404 for an unknown customer, 400 for a bad id or a body, 401 without the admin token, calling nobody', async () => {
    const before = (await testApp.sandboxClient.control.requests('createCustomerAccessToken')).length;
    const unknown = '3f1c2a4e-8b7d-4c1a-9e2f-0a1b2c3d4e5f';
    await testApp.api().post(`/api/v1/customers/${unknown}/access-token`).expect(404);
    await testApp.api().post('/api/v1/customers/not-a-uuid/access-token').expect(400);
    const created = await createCustomer(testApp);
    const withBody = await testApp.api().post(`/api/v1/customers/${created.id}/access-token`).send({ ttl: 5 }).expect(400);
    expect(JSON.stringify(withBody.body.message)).toContain('ttl');
    await request(testApp.app.getHttpServer()).post(`/api/v1/customers/${created.id}/access-token`).expect(401);
    expect(await testApp.sandboxClient.control.requests('createCustomerAccessToken')).toHaveLength(before);
  });
});

describe('Customer access tokens with a real provider (PROVIDER_URL set)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    // The sandbox stands in for the real provider here: the daemon only knows it by PROVIDER_URL.
    testApp = await startTestApp({ env: { PROVIDER_URL: 'https://provider.invalid', PROVIDER_API_KEY: SANDBOX_API_KEY, PROVIDER_SHOP_ID: SANDBOX_SHOP_ID } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('has no hosted form link: the provider hosts its own form', async () => {
    const created = await createCustomer(testApp);
    expect(created.customerAccessToken).toEqual(expect.any(String));
    expect(created).not.toHaveProperty('hostedFormUrl');
    const read = await testApp.api().get(`/api/v1/customers/${created.id}`).expect(200);
    expect(read.body).not.toHaveProperty('hostedFormUrl');
    const issued = await testApp.api().post(`/api/v1/customers/${created.id}/access-token`).expect(201);
    expect(issued.body).toEqual({ customerAccessToken: expect.any(String) });
  });
});
