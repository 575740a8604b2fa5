import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { createReadyCustomers, drain, Engine, listCharges, setClock, startEngine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';

/** A month of billing for up to this many subscriptions on a busy two-core machine, with room to spare. */
jest.setTimeout(HEAVY_TEST_TIMEOUT_MS);

const SUBSCRIBERS = 200;
const MONTHS = 12;

interface PlanSpec {
  name: string;
  lines: { product: string; price: number; quantity?: number; taxRate?: string }[];
}
interface CouponSpec {
  code: string;
  percentOff?: number;
  amountOff?: number;
  duration: 'once' | 'repeating' | 'forever';
  durationPeriods?: number;
}
interface InvoiceView {
  amount: number;
  cart: { price: number; quantity: number }[];
}

const PLANS: PlanSpec[] = [
  { name: 'Duo', lines: [{ product: 'Seat', price: 999, taxRate: '22%' }, { product: 'Support', price: 301, taxRate: '10%' }] },
  { name: 'Solo', lines: [{ product: 'Solo', price: 4990, taxRate: '5/105' }] },
  { name: 'Trio', lines: [{ product: 'Seat', price: 333, quantity: 3, taxRate: '22%' }, { product: 'Storage', price: 7, taxRate: '0%' }] },
];
const COUPONS: (CouponSpec | null)[] = [
  { code: 'FOREVER15', percentOff: 15, duration: 'forever' },
  { code: 'HALF3', percentOff: 50, duration: 'repeating', durationPeriods: 3 },
  { code: 'FREEFIRST', percentOff: 100, duration: 'once' },
  { code: 'MINUS700X6', amountOff: 700, duration: 'repeating', durationPeriods: 6 },
  { code: 'ALLOFF', amountOff: 1_000_000, duration: 'forever' },
  { code: 'THIRD', percentOff: 33, duration: 'repeating', durationPeriods: 11 },
  null,
];

/** The amount of period `k` (0-based) of a subscription, computed here on its own: what the card must have paid. */
function expectedAmount(planAmount: number, quantity: number, coupon: CouponSpec | null, k: number): number {
  const gross = planAmount * quantity;
  if (!coupon) return gross;
  const periods = coupon.duration === 'forever' ? Infinity : coupon.duration === 'once' ? 1 : (coupon.durationPeriods as number);
  if (k >= periods) return gross;
  const off = coupon.percentOff !== undefined ? Math.round((gross * coupon.percentOff) / 100) : Math.min(coupon.amountOff as number, gross);
  return gross - off;
}

/**
 * A year of monthly renewals under the test clock, billed by two replicas on one database, for subscriptions on three
 * plans (several lines, rates and seats) with every kind of coupon: each charge's amount equals the amount computed
 * here, the card paid exactly the non-zero ones, and every invoice the sandbox holds has a cart summing to its amount.
 */
describe('a year of coupons on two replicas', () => {
  let sandbox: SandboxClient;
  let one: Engine;
  let two: Engine;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    one = await startEngine(testDatabaseUrl(), sandbox.url);
    two = await startEngine(testDatabaseUrl(), sandbox.url);
  }, HEAVY_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await two?.close();
    await one?.close();
    await sandbox?.close();
  });

  it('charges every period exactly what the coupons say, and every cart sums to its invoice', async () => {
    const start = Date.UTC(2027, 0, 3, 10);
    await setClock(one, new Date(start).toISOString());
    const plans: { id: string; amount: number }[] = [];
    for (const spec of PLANS) {
      const res = await one.api().post('/api/v1/plans').send({ currency: 'RUB', interval: 'month', product: spec.name, ...spec }).expect(201);
      plans.push({ id: res.body.id, amount: res.body.amount });
    }
    for (const spec of COUPONS) if (spec) await one.api().post('/api/v1/coupons').send({ name: spec.code, ...spec, ...(spec.amountOff ? { currency: 'RUB' } : {}) }).expect(201);
    const customers = await createReadyCustomers(one, sandbox, SUBSCRIBERS);
    const terms = new Map<string, { plan: { id: string; amount: number }; quantity: number; coupon: CouponSpec | null }>();
    for (const [i, customerId] of customers.entries()) {
      const term = { plan: plans[i % PLANS.length], quantity: 1 + (i % 2), coupon: COUPONS[i % COUPONS.length] };
      const engine = i % 2 === 0 ? one : two;
      const res = await engine.api().post('/api/v1/subscriptions').send({ customerId, planId: term.plan.id, quantity: term.quantity, ...(term.coupon ? { couponCode: term.coupon.code } : {}) });
      expect(res.status).toBe(201);
      terms.set(res.body.id, term);
    }
    for (let month = 0; month < MONTHS; month++) {
      await setClock(one, new Date(Date.UTC(2027, month, 3, 10)).toISOString());
      const { settled } = await drain([one, two], SUBSCRIBERS * (month + 1), { timeoutMs: HEAVY_TEST_TIMEOUT_MS / 2 });
      expect({ month, settled }).toEqual({ month, settled: true });
    }

    const charges = await listCharges(one);
    expect(charges).toHaveLength(SUBSCRIBERS * MONTHS);
    const bySubscription = new Map<string, typeof charges>();
    for (const c of charges) bySubscription.set(c.subscriptionId, [...(bySubscription.get(c.subscriptionId) ?? []), c]);
    const expectedCaptures: number[] = [];
    for (const [id, term] of terms) {
      const mine = (bySubscription.get(id) ?? []).sort((a, b) => a.periodStart.localeCompare(b.periodStart));
      const expected = Array.from({ length: MONTHS }, (_, k) => expectedAmount(term.plan.amount, term.quantity, term.coupon, k));
      expect({ id, code: term.coupon?.code, amounts: mine.map((c) => c.amount) }).toEqual({ id, code: term.coupon?.code, amounts: expected });
      expect(mine.every((c) => c.status === 'succeeded')).toBe(true);
      // A charge the coupon took whole made no invoice.
      expect(mine.filter((c) => c.amount === 0).every((c) => c.invoiceId === null)).toBe(true);
      expectedCaptures.push(...expected.filter((a) => a > 0));
    }

    // The card paid each non-zero charge once, at its amount: the provider's own ledger, not the daemon's word.
    const captured = (await sandbox.control.ledger()).payments.filter((p) => p.status === 'captured').map((p) => p.amount);
    expect(captured.sort((a, b) => a - b)).toEqual(expectedCaptures.sort((a, b) => a - b));

    // Every invoice, read back from the provider, has a cart that sums exactly to its amount, every line at least 1.
    const invoiced = charges.filter((c) => c.invoiceId !== null);
    expect(invoiced.length).toBe(expectedCaptures.length);
    for (const c of invoiced) {
      const { amount, cart } = (await sandbox.call<InvoiceView>('GET', `/v2/processing/invoices/${c.invoiceId}`)).data;
      expect({ charge: c.id, amount, cartSum: cart.reduce((sum, l) => sum + l.price * l.quantity, 0), linesAtLeastOne: cart.every((l) => l.price >= 1 && l.quantity >= 1) }).toEqual({
        charge: c.id,
        amount: c.amount,
        cartSum: c.amount,
        linesAtLeastOne: true,
      });
    }
  });
});
