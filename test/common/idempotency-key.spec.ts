import { Client } from 'pg';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';

const plan = { name: 'Idem', product: 'Idem', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] };

async function dump(table: string): Promise<string> {
  const db = new Client({ connectionString: testDatabaseUrl() });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT row_to_json(t)::text AS j FROM "${table}" t`);
    return rows.map((r: { j: string }) => r.j).join('\n');
  } finally {
    await db.end();
  }
}

describe('Idempotency-Key', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a repeat with the first response and creates nothing more', async () => {
    const first = await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-1').send(plan).expect(201);
    const again = await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-1').send(plan).expect(201);
    expect(again.body).toEqual(first.body);
    const list = await t.api().get('/api/v1/plans').expect(200);
    expect(list.body.items.filter((p: { name: string }) => p.name === 'Idem')).toHaveLength(1);
  });

  it('refuses the same key with another body (409) and a key that is too long (400)', async () => {
    await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-2').send(plan).expect(201);
    const conflict = await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-2').send({ ...plan, name: 'Other' });
    expect(conflict.status).toBe(409);
    expect((await t.api().post('/api/v1/plans').set('Idempotency-Key', 'k'.repeat(65)).send(plan)).status).toBe(400);
  });

  it('lets a request that failed be sent again with the same key', async () => {
    await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-3').send({ ...plan, currency: 'rub' }).expect(400);
    await t.api().post('/api/v1/plans').set('Idempotency-Key', 'plan-3').send(plan).expect(201);
  });

  it('never stores the customer access token it answered once', async () => {
    const first = await t.api().post('/api/v1/customers').set('Idempotency-Key', 'cust-1').send({ email: 'idem@example.com' }).expect(201);
    expect(typeof first.body.customerAccessToken).toBe('string');
    const again = await t.api().post('/api/v1/customers').set('Idempotency-Key', 'cust-1').send({ email: 'idem@example.com' }).expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.customerAccessToken).toBeNull();
    expect(await dump('idempotency_records')).not.toContain(first.body.customerAccessToken);
  });

  it('retries a customer create whose answer was lost without making a second provider customer', async () => {
    // Every try of the first request is applied at the provider but answered 504.
    await t.sandboxClient.control.addFault({ operation: 'createCustomer', kind: 'timeout_after_effect', count: 4 });
    const lost = await t.api().post('/api/v1/customers').set('Idempotency-Key', 'cust-lost').send({ email: 'lost@example.com' });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    await t.sandboxClient.control.clearFaults();
    const retried = await t.api().post('/api/v1/customers').set('Idempotency-Key', 'cust-lost').send({ email: 'lost@example.com' }).expect(201);

    const requests = (await t.sandboxClient.control.requests('createCustomer')).map((r) => r.body as { externalID: string; contactInfo: { email?: string } });
    const mine = requests.filter((body) => body.contactInfo.email === 'lost@example.com');
    expect(mine.length).toBeGreaterThanOrEqual(5);
    expect(new Set(mine.map((body) => body.externalID)).size).toBe(1);
    expect(await dump('customers')).toContain(retried.body.providerCustomerId);
    const rows = (await dump('customers')).split('\n').filter((line) => line.includes('lost@example.com'));
    expect(rows).toHaveLength(1);
  });
});
