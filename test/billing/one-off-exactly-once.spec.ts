import { DataSource } from 'typeorm';
import { Scenario } from '../scenarios/support/scenario';
import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { CARDS } from '../support/test-cards';
import { testDatabaseUrl } from '../support/test-database';
import { waitFor } from '../support/wait';

interface Charge {
  id: string;
  status: string;
  amount: number;
  invoiceId: string | null;
  attempts: { number: number; status: string; paymentId: string | null }[];
}

/**
 * A one-off is paid exactly once whatever goes wrong between the daemon, its database and the provider: answers the
 * provider gave after doing the work, an answer of the daemon's own lost after its database committed, a database
 * restored to before the charge. The sandbox's ledger is the judge.
 */
describe('one-off charges exactly once', () => {
  let proxy: PostgresFaultProxy;
  let s: Scenario;
  let customer: { id: string; providerCustomerId: string };

  beforeAll(async () => {
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    s = await Scenario.start({}, {}, proxy.urlFor(testDatabaseUrl()));
    await s.setClock('2027-05-01T10:00:00.000Z');
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
    await proxy?.close();
  });

  const charge = (body: object, key?: string) => {
    const req = s.api().post(`/api/v1/customers/${customer.id}/charges`);
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const captured = async (amount: number) => (await s.ledgerPayments()).filter((p) => p.customerID === customer.providerCustomerId && p.amount === amount && p.status === 'captured');
  const invoicesAt = async (amount: number) => new Set((await s.ledgerPayments()).filter((p) => p.customerID === customer.providerCustomerId && p.amount === amount).map((p) => p.invoiceID));
  /** Billing passes until the charge settles (each pass works what is due; a technical backoff is real time). */
  const settled = (id: string) =>
    waitFor(
      async () => {
        await s.runBilling();
        return s.get<Charge>(`/api/v1/charges/${id}`);
      },
      (c) => c.status === 'succeeded' || c.status === 'failed',
      { timeoutMs: 60_000, everyMs: 50, what: `one-off ${id} settled` },
    );

  it('is paid once when the provider made the invoice and the payment but its answers were lost (504 after the effect)', async () => {
    // More than the gateway's own retries of one call (3): the engine must replay them on later passes.
    await s.sandboxControl.addFault({ operation: 'createInvoice', kind: 'timeout_after_effect', count: 4 });
    await s.sandboxControl.addFault({ operation: 'createPayment', kind: 'timeout_after_effect', count: 4 });
    await s.sandboxControl.addFault({ operation: 'getPayment', kind: 'reset_after_effect', count: 1 });
    const body = { lines: [{ product: 'Migration service', price: 41000, taxRate: '22%' }], currency: 'RUB' };
    const first = await charge(body, 'one-off-faults');
    expect(first.status).toBe(202);
    // The invoice's outcome is unknown: the charge waits for a later pass, which replays the same request.
    expect(first.body).toMatchObject({ status: 'pending', invoiceId: null, lastErrorCode: 'unknown_outcome' });
    const done = await settled(first.body.id);
    expect(done.status).toBe('succeeded');
    expect(await captured(41000)).toHaveLength(1);
    expect(await invoicesAt(41000)).toEqual(new Set([done.invoiceId]));
    // Every create was replayed under its first externalID, never a fresh one.
    const creates = (await s.sandboxRequests('createInvoice')).map((r) => (r.body as { externalID: string; amount: number })).filter((b) => b.amount === 41000);
    expect(creates.length).toBe(5);
    expect(new Set(creates.map((c) => c.externalID)).size).toBe(1);
    const payments = (await s.sandboxRequests('createPayment')).map((r) => (r.body as { externalID: string }).externalID).filter((id) => id.startsWith(`pay${creates[0].externalID.slice(3)}`));
    expect(payments.length).toBe(5);
    expect(new Set(payments).size).toBe(1);
    expect(done.attempts).toEqual([expect.objectContaining({ number: 1, status: 'succeeded' })]);
    expect((await s.sandboxControl.faults()).map((f) => f.hits)).toEqual([4, 4, 1]);
    // The key's repeat is the first answer, changing nothing.
    const repeat = await charge(body, 'one-off-faults');
    expect([repeat.status, repeat.body]).toEqual([202, first.body]);
    await s.sandboxControl.clearFaults();
  });

  it('answers a keyed repeat with the same charge when the first answer was lost after the database committed it', async () => {
    const body = { lines: [{ product: 'Data export', price: 42000 }], currency: 'RUB', description: 'April export' };
    const cut = proxy.cutBefore(/^UPDATE idempotency_records SET status_code/);
    const first = await charge(body, 'one-off-lost-answer');
    await cut;
    expect([first.status, first.body.code]).toEqual([503, 'outcome_unknown']);
    const repeat = await charge(body, 'one-off-lost-answer');
    expect(repeat.status).toBe(202);
    expect(repeat.body).toMatchObject({ status: 'succeeded', amount: 42000, description: 'April export' });
    const all = (await s.get<{ items: { id: string; amount: number }[] }>(`/api/v1/charges?customerId=${customer.id}&limit=200`)).items.filter((c) => c.amount === 42000);
    expect(all.map((c) => c.id)).toEqual([repeat.body.id]);
    expect(await captured(42000)).toHaveLength(1);
  });

  it('after a restore to before it, the same reference meets the invoice and payment the provider holds and pays nothing twice', async () => {
    const body = { lines: [{ product: 'Annual audit', price: 43000, taxRate: '22%' }], currency: 'RUB', reference: 'audit-2027' };
    const first = await charge(body);
    expect([first.status, first.body.status]).toEqual([202, 'succeeded']);
    // The database comes back from a backup taken before the charge: its rows are gone, the provider kept everything.
    const db = s.app.get(DataSource);
    await db.query(`DELETE FROM charge_attempts WHERE charge_id = $1`, [first.body.id]);
    await db.query(`DELETE FROM charges WHERE id = $1`, [first.body.id]);
    expect((await s.api().get(`/api/v1/charges/${first.body.id}`)).status).toBe(404);

    const again = await charge(body);
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(first.body.id);
    const done = again.body.status === 'succeeded' ? (again.body as Charge) : await settled(again.body.id);
    expect(done).toMatchObject({ status: 'succeeded', invoiceId: first.body.invoiceId });
    expect(done.attempts.map((a) => a.paymentId)).toEqual(first.body.attempts.map((a: { paymentId: string }) => a.paymentId));
    expect(await captured(43000)).toHaveLength(1);
    expect(await invoicesAt(43000)).toEqual(new Set([first.body.invoiceId]));
  });
});
