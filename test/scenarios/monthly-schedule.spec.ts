import { CARDS } from '../support/test-cards';
import { Scenario } from './support/scenario';

// A simulated year under the test clock, billing pass after billing pass: on a two-core machine busy with other work it
// can take longer than the suite's 300 s per test without anything being wrong.
jest.setTimeout(900_000);

/** Charges listed oldest first. */
async function chargesOf(s: Scenario, subscriptionId: string) {
  const page = await s.get<{ items: { periodStart: string; amount: number; status: string; invoiceId: string; attempts: unknown[] }[] }>(
    `/api/v1/subscriptions/${subscriptionId}/charges?limit=200`,
  );
  return [...page.items].reverse();
}

describe('monthly billing over a simulated year', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start();
  });

  afterAll(async () => {
    await s.close();
  });

  it('charges a plan started on January 31 thirteen times in twelve months, on the right dates, with its cart, through the invoice access token', async () => {
    await s.setClock('2027-01-31T09:00:00.000Z');
    const plan = await s.post<{ id: string; amount: number }>('/api/v1/plans', {
      name: 'Team',
      product: 'Team plan',
      description: 'Monthly team plan',
      currency: 'RUB',
      interval: 'month',
      lines: [
        { product: 'Seat', price: 100000, quantity: 3, taxRate: '22%' },
        { product: 'Support', price: 25000 },
      ],
    });
    expect(plan.amount).toBe(325000);
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    const sub = await s.post<{ id: string; status: string }>('/api/v1/subscriptions', {
      customerId: customer.id,
      planId: plan.id,
      timezone: 'Europe/Moscow',
    });
    expect(sub.status).toBe('active');

    // Walk day by day through Jan 31 2027 .. Jan 31 2028, a pass a day: nothing may be charged twice or missed.
    const day = 86_400_000;
    for (let t = Date.parse('2027-01-31T09:00:00.000Z'); t <= Date.parse('2028-01-31T09:00:00.000Z'); t += day) {
      await s.setClock(new Date(t).toISOString());
      await s.runBilling();
    }

    const charges = await chargesOf(s, sub.id);
    expect(charges).toHaveLength(13);
    // Periods start at 12:00 Moscow time (09:00Z) on the 31st, or the month's last day.
    expect(charges.map((c) => c.periodStart.slice(0, 10))).toEqual([
      '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30',
      '2027-07-31', '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31',
    ]);
    expect(charges.every((c) => c.status === 'succeeded' && c.amount === 325000)).toBe(true);

    const captured = (await s.ledgerPayments()).filter((p) => p.status === 'captured' && p.customerID === customer.providerCustomerId);
    expect(captured).toHaveLength(13);
    expect(new Set(captured.map((p) => p.invoiceID)).size).toBe(13);
    expect(captured.every((p) => p.amount === 325000)).toBe(true);

    const invoices = await s.sandboxRequests('createInvoice');
    expect(invoices).toHaveLength(13);
    expect(invoices[0].body).toMatchObject({
      currency: 'RUB',
      amount: 325000,
      product: 'Team plan',
      description: 'Monthly team plan',
      cart: [
        { product: 'Seat', price: 100000, quantity: 3, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
        { product: 'Support', price: 25000, quantity: 1 },
      ],
    });
    // Every payment is authorized by its own invoice's access token, never the API key.
    const payments = await s.sandboxRequests('createPayment');
    expect(payments).toHaveLength(13);
    for (const p of payments) {
      expect(p.headers.authorization).not.toBe('Bearer sandbox-api-key');
      expect(p.body).toMatchObject({ flow: { type: 'PaymentFlowInstant' }, payer: { payerType: 'CustomerPayer', customerID: customer.providerCustomerId } });
    }
  });
});
