import request from 'supertest';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { TestApp } from '../support/test-app';
import { createCustomer, CustomerBody, dataSource, tableText, useCustomersApp } from './customer-test-helpers';

describe('Customers admin API', () => {
  let testApp: TestApp;
  useCustomersApp((started) => (testApp = started));

  const customerCount = async () => Number((await dataSource(testApp).query<{ n: string }[]>('SELECT count(*) AS n FROM customers'))[0].n);

  it('creates an unready customer at the provider and hands the access token back once', async () => {
    const created = await createCustomer(testApp, { email: 'payer@example.com', phone: '+79991234567', metadata: { plan: 'gold' } });

    expect(created).toMatchObject({
      status: 'unready',
      card: null,
      readyAt: null,
      email: 'payer@example.com',
      phone: '+79991234567',
      metadata: { plan: 'gold' },
      shopId: SANDBOX_SHOP_ID,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.providerCustomerId).toEqual(expect.any(String));
    expect(created.customerAccessToken).toEqual(expect.any(String));
    expect(created.customerAccessToken!.length).toBeGreaterThan(0);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    // The provider got our contact data, the metadata plus our id, and a stable externalID.
    const [createRequest] = await testApp.sandboxClient.control.requests('createCustomer').then((entries) => entries.slice(-1));
    expect(createRequest).toBeDefined();
    const sent = (createRequest as unknown as { body: Record<string, unknown> }).body;
    expect(sent).toMatchObject({
      shopID: SANDBOX_SHOP_ID,
      contactInfo: { email: 'payer@example.com', phoneNumber: '+79991234567' },
      metadata: { plan: 'gold', daemonCustomerId: created.id },
      externalID: `c${created.id.replace(/-/g, '')}`,
    });

    // Not in the read, not anywhere in the stored row.
    const read = await testApp.api().get(`/api/v1/customers/${created.id}`).expect(200);
    expect(read.body).not.toHaveProperty('customerAccessToken');
    expect(JSON.stringify(read.body)).not.toContain(created.customerAccessToken);
    expect(await tableText(testApp, 'customers')).not.toContain(created.customerAccessToken);
    const list = await testApp.api().get('/api/v1/customers').expect(200);
    expect(JSON.stringify(list.body)).not.toContain(created.customerAccessToken);
  });

  it('answers the customer with its card and readiness, and uses the given shop', async () => {
    const created = await createCustomer(testApp, { shopId: SANDBOX_SHOP_ID });
    const read = await testApp.api().get(`/api/v1/customers/${created.id}`).expect(200);
    expect(read.body).toEqual({
      id: created.id,
      providerCustomerId: created.providerCustomerId,
      status: 'unready',
      card: null,
      pendingBinding: null,
      cardExpired: false,
      readyAt: null,
      email: null,
      phone: null,
      metadata: {},
      shopId: SANDBOX_SHOP_ID,
      hostedFormUrl: `${testApp.sandbox.url}/sandbox/hosted-form?customerID=${created.providerCustomerId}`,
      createdAt: created.createdAt,
      updatedAt: expect.any(String),
    });
  });

  it('lists customers newest first, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await createCustomer(testApp, { metadata: { n: i } })).id);

    const first = await testApp.api().get('/api/v1/customers?limit=2').expect(200);
    expect((first.body.items as CustomerBody[]).map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.body.items[0]).not.toHaveProperty('customerAccessToken');

    const second = await testApp.api().get(`/api/v1/customers?limit=2&cursor=${first.body.nextCursor as string}`).expect(200);
    expect((second.body.items as CustomerBody[]).map((c) => c.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['an email over 100 characters', { email: `${'a'.repeat(95)}@example.com` }, 'email'],
    ['a phone without the plus sign', { phone: '89991234567' }, 'phone'],
    ['a phone with too few digits', { phone: '+12' }, 'phone'],
    ['metadata that is an array', { metadata: ['a'] }, 'metadata'],
    ['metadata that is a string', { metadata: 'text' }, 'metadata'],
    ['metadata with 51 keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
    ['an empty shopId', { shopId: '' }, 'shopId'],
    ['a shopId over 40 characters', { shopId: 'x'.repeat(41) }, 'shopId'],
    ['an unknown field', { nickname: 'bob' }, 'nickname'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_case, body, field) => {
    const before = (await testApp.sandboxClient.control.requests('createCustomer')).length;
    const response = await testApp.api().post('/api/v1/customers').send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(JSON.stringify(response.body.message)).toContain(field);
    expect(await customerCount()).toBe(0);
    expect((await testApp.sandboxClient.control.requests('createCustomer')).length).toBe(before);
  });

  it('accepts 50 metadata keys', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const created = await createCustomer(testApp, { metadata });
    expect(created.metadata).toEqual(metadata);
  });

  it('answers 400 for an id that is not a UUID and 404 for an unknown one', async () => {
    const bad = await testApp.api().get('/api/v1/customers/not-a-uuid').expect(400);
    expect(JSON.stringify(bad.body.message)).toContain('id');
    await testApp.api().post('/api/v1/customers/not-a-uuid/refresh').expect(400);
    await testApp.api().post('/api/v1/customers/not-a-uuid/bindings').send({ paymentToolToken: 't', paymentSession: 's' }).expect(400);
    await testApp.api().get('/api/v1/customers/not-a-uuid/bindings').expect(400);

    const unknown = '3f1c2a4e-8b7d-4c1a-9e2f-0a1b2c3d4e5f';
    const missing = await testApp.api().get(`/api/v1/customers/${unknown}`).expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404, message: expect.stringContaining(unknown) });
    await testApp.api().post(`/api/v1/customers/${unknown}/refresh`).expect(404);
    await testApp.api().post(`/api/v1/customers/${unknown}/bindings`).send({ paymentToolToken: 't', paymentSession: 's' }).expect(404);
    await testApp.api().get(`/api/v1/customers/${unknown}/bindings`).expect(404);
  });

  it('answers 401 without the admin token, or with a wrong one, and changes nothing', async () => {
    const server = testApp.app.getHttpServer();
    await request(server).post('/api/v1/customers').send({}).expect(401);
    await request(server).get('/api/v1/customers').expect(401);
    await request(server).post('/api/v1/customers').set('Authorization', 'Bearer wrong-token').send({}).expect(401);
    expect(await customerCount()).toBe(0);
  });

  it('passes a provider refusal on as 422 with its code, storing nothing', async () => {
    const response = await testApp.api().post('/api/v1/customers').send({ shopId: 'no-such-shop' }).expect(422);
    expect(response.body).toMatchObject({ statusCode: 422, providerCode: 'invalidShopID' });
    expect(response.body.message).toContain('invalidShopID');
    expect(await customerCount()).toBe(0);
  });
});
