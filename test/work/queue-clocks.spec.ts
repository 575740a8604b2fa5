import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CHARGE_QUEUE, ChargeQueue } from '../../src/billing/charge-queue';
import { Clock } from '../../src/common/clock/clock';
import { Customer } from '../../src/customers/customer.entity';
import { LeasedQueues } from '../../src/work/leased-queues.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

/**
 * Each queue's due column follows one clock: charges the billing clock (a test clock may lead real time by years),
 * customers the database's. A claim or a wake compares the column with that clock only, never with the other one,
 * so a test clock far ahead can neither stall a row nor make it due early.
 */
describe('the work engine keeps each queue on its own clock', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    await t.api().post('/api/v1/test-clock').send({ advance: '730d' }).expect(200);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('refuses to wake a charge without a time on the billing clock (real time is not its clock)', async () => {
    const charges = t.app.get<ChargeQueue>(CHARGE_QUEUE);
    const target = { sql: 'SELECT id, true AS waiting FROM charges WHERE id = $1', params: [randomUUID()] };
    await expect(charges.wake(target)).rejects.toThrow(/needs the time it is due at/);
    await expect(charges.wake(target, t.app.get(Clock).now())).resolves.toBe('none');
  });

  it('never lets a billing-clock time two years ahead make a customer due that the database clock says is not', async () => {
    const customer = (await t.api().post('/api/v1/customers').send({}).expect(201)).body as { id: string };
    await t.app.get(DataSource).query(`UPDATE customers SET next_sync_at = now() + interval '1 hour' WHERE id = $1`, [customer.id]);
    const customers = t.app.get(LeasedQueues).create<Customer>({ name: 'customers', entity: Customer, dueColumn: 'next_sync_at', dueAgainst: 'database', hasNotBefore: false });

    await expect(customers.claim(10, { dueAt: t.app.get(Clock).now() })).rejects.toThrow(/follows the database's clock/);
    expect(await customers.claim(10, { onlyId: customer.id })).toEqual([]);
    const [{ leased }] = await t.app.get(DataSource).query(`SELECT lease_owner IS NOT NULL AS leased FROM customers WHERE id = $1`, [customer.id]);
    expect(leased).toBe(false);
  });
});
