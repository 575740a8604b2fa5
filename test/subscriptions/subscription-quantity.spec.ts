import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

describe('subscription quantity (seats) over the admin API', () => {
  let s: Scenario;
  let planId: string;
  let customer: { id: string; providerCustomerId: string };

  beforeAll(async () => {
    s = await Scenario.start();
    await s.setClock('2027-03-10T10:00:00.000Z');
    planId = (
      await s.post<{ id: string }>('/api/v1/plans', {
        name: 'Team',
        product: 'Team plan',
        currency: 'RUB',
        interval: 'month',
        lines: [
          { product: 'Seat', price: 10000, quantity: 2 },
          { product: 'Support', price: 500 },
        ],
      })
    ).id;
    customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
  });

  afterAll(async () => {
    await s.close();
  });

  it.each([
    [0, 'quantity must be at least 1'],
    [10001, 'quantity must be at most 10000'],
    [1.5, 'quantity must be an integer'],
    ['2', 'quantity must be an integer'],
  ])('refuses quantity %j with 400 naming the field', async (quantity, message) => {
    const res = await s.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId, quantity });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('quantity');
    expect(JSON.stringify(res.body.message)).toContain(message);
  });

  it('defaults to 1', async () => {
    const other = await s.createCustomer();
    const sub = await s.post<{ quantity: number; pendingChange: unknown }>('/api/v1/subscriptions', { customerId: other.id, planId });
    expect(sub.quantity).toBe(1);
    expect(sub.pendingChange).toBeNull();
  });

  it('charges the plan amount × quantity, every cart line multiplied', async () => {
    const sub = await s.post<{ id: string; quantity: number }>('/api/v1/subscriptions', { customerId: customer.id, planId, quantity: 3 });
    expect(sub.quantity).toBe(3);
    expect((await s.get<{ quantity: number }>(`/api/v1/subscriptions/${sub.id}`)).quantity).toBe(3);
    await s.runBilling();
    const charges = (await s.get<{ items: { amount: number; kind: string; paidFromBalance: number; status: string }[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
    expect(charges).toEqual([expect.objectContaining({ amount: 61500, kind: 'period', paidFromBalance: 0, status: 'succeeded' })]);
    const invoice = (await s.sandboxRequests('createInvoice')).find((r) => (r.body as { metadata?: { subscriptionId?: string } }).metadata?.subscriptionId === sub.id);
    expect(invoice?.body).toMatchObject({
      amount: 61500,
      cart: [
        { product: 'Seat', price: 10000, quantity: 6 },
        { product: 'Support', price: 500, quantity: 3 },
      ],
    });
    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId);
    expect(captured.map((p) => p.amount)).toEqual([61500]);
  });
});
