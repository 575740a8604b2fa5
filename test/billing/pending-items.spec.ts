import { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

interface Line {
  product: string;
  price: number;
  quantity: number;
  taxRate?: string;
}
interface Item {
  id: string;
  subscriptionId: string;
  source: string;
  lines: Line[];
  amount: number;
  status: string;
  chargeId: string | null;
  reference: string | null;
}
interface Charge {
  id: string;
  kind: string;
  amount: number;
  paidFromBalance: number;
  status: string;
  lines: Line[] | null;
  periodStart: string;
}
interface InvoiceBody {
  amount: number;
  cart: { product: string; price: number; quantity: number; taxMode?: { rate: string } }[];
  metadata: { chargeId?: string };
}

/**
 * Pending items: `when: next_renewal` adds lines to a subscription's next period charge, which carries them on its
 * invoice beside the plan's lines and marks them billed in the transaction that makes it.
 */
describe('pending items billed with the next renewal', () => {
  let s: Scenario;
  let planId: string;
  let customer: { id: string; providerCustomerId: string };

  const seat = { product: 'Extra seat, one month', price: 1500, taxRate: '22%' };
  const books = { product: 'Workbook', price: 333, quantity: 3, taxRate: '10%' };
  const add = (subscriptionId: string, body: object = {}) =>
    s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ lines: [seat], currency: 'RUB', when: 'next_renewal', subscriptionId, ...body });
  const itemsOf = async (subscriptionId: string) => (await s.get<{ items: Item[] }>(`/api/v1/subscriptions/${subscriptionId}/pending-items`)).items;
  const chargesOf = async (subscriptionId: string) => (await s.get<{ items: Charge[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items;
  const invoiceOf = async (chargeId: string) => (await s.sandboxRequests('createInvoice')).map((r) => r.body as InvoiceBody).filter((b) => b.metadata.chargeId === chargeId);
  const subscribe = async () => (await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId })).id;

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-01-01T00:00:00.000Z');
    planId = (
      await s.post<{ id: string }>('/api/v1/plans', {
        name: 'Team',
        product: 'Team',
        currency: 'RUB',
        interval: 'month',
        lines: [
          { product: 'Seat', price: 1000, quantity: 2, taxRate: '22%' },
          { product: 'Support', price: 500, taxRate: '22/122' },
        ],
      })
    ).id;
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('carries them on the next period charge only: its cart is the plan lines × seats then the items, every rate kept, summing to its amount', async () => {
    await s.setClock('2027-01-01T00:00:00.000Z');
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, quantity: 2 });
    await s.runBilling();
    const first = await add(sub.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ subscriptionId: sub.id, source: 'merchant', amount: 1500, currency: 'RUB', status: 'pending', chargeId: null, lines: [{ ...seat, quantity: 1 }] });
    const second = await add(sub.id, { lines: [books], description: 'Workbooks for the new team' });
    expect([second.status, second.body.amount]).toEqual([201, 999]);
    expect((await itemsOf(sub.id)).map((i) => i.id)).toEqual([second.body.id, first.body.id]);
    // Nothing is charged before the renewal.
    expect((await chargesOf(sub.id)).map((c) => c.amount)).toEqual([5000]);

    await s.setClock('2027-02-01T00:00:00.000Z');
    await s.runBilling();
    const [renewal] = await chargesOf(sub.id);
    expect(renewal).toMatchObject({ kind: 'period', periodStart: '2027-02-01T00:00:00.000Z', amount: 5000 + 1500 + 999, status: 'succeeded' });
    expect(renewal.lines).toEqual([
      { product: 'Seat', price: 1000, quantity: 4, taxRate: '22%' },
      { product: 'Support', price: 500, quantity: 2, taxRate: '22/122' },
      { product: 'Extra seat, one month', price: 1500, quantity: 1, taxRate: '22%' },
      { product: 'Workbook', price: 333, quantity: 3, taxRate: '10%' },
    ]);
    const [invoice, ...again] = await invoiceOf(renewal.id);
    expect(again).toEqual([]);
    expect(invoice.amount).toBe(7499);
    expect(invoice.cart.map((l) => [l.product, l.price, l.quantity, l.taxMode?.rate])).toEqual([
      ['Seat', 1000, 4, '22%'],
      ['Support', 500, 2, '22/122'],
      ['Extra seat, one month', 1500, 1, '22%'],
      ['Workbook', 333, 3, '10%'],
    ]);
    expect((await itemsOf(sub.id)).map((i) => [i.status, i.chargeId])).toEqual([
      ['billed', renewal.id],
      ['billed', renewal.id],
    ]);
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId).map((p) => p.amount);
    expect(captured.slice(-2)).toEqual([5000, 7499]);

    // The renewal after carries none of them again.
    await s.setClock('2027-03-01T00:00:00.000Z');
    await s.runBilling();
    expect((await chargesOf(sub.id)).map((c) => [c.amount, c.lines])).toEqual([
      [5000, null],
      [7499, renewal.lines],
      [5000, null],
    ]);
    await s.post(`/api/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: false }, 200);
  });

  it('drops one still pending on DELETE, refuses to drop a billed one (409), and drops them all when the subscription ends', async () => {
    await s.setClock('2027-04-01T00:00:00.000Z');
    const sub = await subscribe();
    await s.runBilling();
    const dropped = (await add(sub)).body as Item;
    const kept = (await add(sub, { lines: [books] })).body as Item;
    const del = await s.api().delete(`/api/v1/pending-items/${dropped.id}`);
    expect([del.status, del.body.status]).toEqual([200, 'canceled']);
    expect((await s.api().delete(`/api/v1/pending-items/${dropped.id}`)).body.status).toBe('canceled');
    expect((await s.api().delete('/api/v1/pending-items/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await s.api().delete('/api/v1/pending-items/nope')).status).toBe(400);

    await s.setClock('2027-05-01T00:00:00.000Z');
    await s.runBilling();
    const [renewal] = await chargesOf(sub);
    expect(renewal.amount).toBe(2500 + 999);
    const billed = await s.api().delete(`/api/v1/pending-items/${kept.id}`);
    expect([billed.status, billed.body.code]).toEqual([409, 'state_conflict']);
    expect(await s.get(`/api/v1/pending-items/${kept.id}`)).toMatchObject({ status: 'billed', chargeId: renewal.id });

    // Canceled now, or at the period end: what is still pending is dropped, never billed.
    const late = (await add(sub)).body as Item;
    await s.post(`/api/v1/subscriptions/${sub}/cancel`, { atPeriodEnd: true }, 200);
    expect((await add(sub)).status).toBe(409);
    await s.setClock('2027-06-01T00:00:00.000Z');
    await s.runBilling();
    expect((await itemsOf(sub)).find((i) => i.id === late.id)).toMatchObject({ status: 'canceled', chargeId: null });
    expect((await chargesOf(sub)).map((c) => c.amount)).toEqual([3499, 2500]);

    const other = await subscribe();
    const orphan = (await add(other)).body as Item;
    await s.post(`/api/v1/subscriptions/${other}/cancel`, { atPeriodEnd: false }, 200);
    expect((await itemsOf(other)).find((i) => i.id === orphan.id)).toMatchObject({ status: 'canceled' });
  });

  it('answers a repeat by reference with the same item, and refuses what no renewal invoice could hold (422 naming lines)', async () => {
    const sub = await subscribe();
    const first = await add(sub, { reference: 'seat-2027-07' });
    const again = await add(sub, { reference: 'seat-2027-07' });
    expect([first.status, again.status, again.body]).toEqual([201, 200, first.body]);
    const taken = await add(sub, { reference: 'seat-2027-07', lines: [books] });
    expect([taken.status, taken.body.code, taken.body.pendingItemId]).toEqual([409, 'charge_reference_taken', first.body.id]);
    const asCharge = await s.api().post(`/api/v1/customers/${customer.id}/charges`).send({ lines: [seat], currency: 'RUB', reference: 'seat-2027-07' });
    expect([asCharge.status, asCharge.body.code]).toEqual([409, 'charge_reference_taken']);

    const tooMany = await add(sub, { lines: Array.from({ length: 99 }, (_, i) => ({ product: `Line ${i}`, price: 1 })) });
    expect([tooMany.status, tooMany.body.code, tooMany.body.field]).toEqual([422, 'business_rule', 'lines']);
    const tooMuch = await add(sub, { lines: [{ product: 'Everything', price: 999_999_999_999_000 }] });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.field]).toEqual([422, 'business_rule', 'lines']);
    expect((await itemsOf(sub)).map((i) => i.id)).toEqual([first.body.id]);
    await s.post(`/api/v1/subscriptions/${sub}/cancel`, { atPeriodEnd: false }, 200);
  });
});
