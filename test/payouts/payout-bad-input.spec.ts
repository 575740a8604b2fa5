import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { authorizedDestination, cardDataIn, futureExpDate, setUpPayouts, TEST_CVV } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';

type Body = Record<string, unknown>;

const goodCard = () => ({ cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV', cvv: TEST_CVV });
const destinationWith = (card: Body, extra: Body = {}): Body => ({ name: 'Recipient', currency: 'RUB', card: { ...goodCard(), ...card }, ...extra });

describe('Card payouts: bad input is refused naming the field, and nothing reaches the provider', () => {
  let t: PayoutTestApp;
  let destinationId: string;
  const sent: Record<string, number> = {};
  const providerCalls = ['tokenizeBankCard', 'createDestination', 'createWithdrawal'] as const;

  const storedCounts = async () =>
    (
      await t.dataSource.query<{ destinations: number; payouts: number; batches: number }[]>(
        `SELECT (SELECT count(*)::int FROM payout_destinations) AS destinations, (SELECT count(*)::int FROM payouts) AS payouts,
                (SELECT count(*)::int FROM payout_batches) AS batches`,
      )
    )[0];
  let stored: { destinations: number; payouts: number; batches: number };

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success)).id;
    for (const operation of providerCalls) sent[operation] = (await t.sandboxClient.control.requests(operation)).length;
    stored = await storedCounts();
  });

  afterEach(async () => {
    // Whatever the case, the provider saw nothing more and nothing was stored.
    for (const operation of providerCalls) expect({ operation, sent: (await t.sandboxClient.control.requests(operation)).length }).toEqual({ operation, sent: sent[operation] });
    expect(await storedCounts()).toEqual(stored);
  });

  afterAll(async () => {
    await t?.close();
  });

  const expectRefused = (res: { status: number; body: { message?: unknown } }, status: number, field: string) => {
    expect(res.status).toBe(status);
    const messages = ([] as unknown[]).concat(res.body.message);
    expect(messages.some((m) => typeof m === 'string' && m.includes(field))).toBe(true);
    expect(cardDataIn([JSON.stringify(res.body)])).toEqual([]);
  };

  it.each<[string, number, string, Body]>([
    ['a card number of 11 digits', 400, 'card.cardNumber', destinationWith({ cardNumber: '42424242424' })],
    ['a card number of 20 digits', 400, 'card.cardNumber', destinationWith({ cardNumber: '42424242424242424242' })],
    ['a card number failing the Luhn check', 400, 'card.cardNumber', destinationWith({ cardNumber: CARDS.badChecksum })],
    ['a card number with spaces', 400, 'card.cardNumber', destinationWith({ cardNumber: '4242 4242 4242 4242' })],
    ['a card number given as a number', 400, 'card.cardNumber', destinationWith({ cardNumber: 4242424242424242 })],
    ['an expiry month 13', 400, 'card.expDate', destinationWith({ expDate: '13/30' })],
    ['an expiry not MM/YY', 400, 'card.expDate', destinationWith({ expDate: '2030-01' })],
    ['an expiry in the past', 422, 'card.expDate', destinationWith({ expDate: '01/20' })],
    ['a CVV of 2 digits', 400, 'card.cvv', destinationWith({ cvv: '12' })],
    ['no card holder', 400, 'card.cardHolder', destinationWith({ cardHolder: undefined })],
    ['a card holder of 101 characters', 400, 'card.cardHolder', destinationWith({ cardHolder: 'A'.repeat(101) })],
    ['an unknown card field', 400, 'card.property track2', destinationWith({ track2: 'x' })],
    ['both a card and a card token', 400, 'cardToken', destinationWith({}, { cardToken: 'tok' })],
    ['neither a card nor a card token', 400, 'cardToken', { name: 'Recipient', currency: 'RUB' }],
    ['a currency other than the wallet', 422, 'currency', destinationWith({}, { currency: 'USD' })],
    ['a lower-case currency', 400, 'currency', destinationWith({}, { currency: 'rub' })],
    ['no name', 400, 'name', destinationWith({}, { name: '' })],
  ])('destination with %s → %i naming %s', async (_label, status, field, body) => {
    expectRefused(await t.api().post('/api/v1/payouts/destinations').send(body), status, field);
  });

  const payout = (extra: Body): Body => ({ destinationId, amount: 1000, currency: 'RUB', ...extra });

  it.each<[string, number, string, () => Body]>([
    ['amount 0', 400, 'amount', () => payout({ amount: 0 })],
    ['a negative amount', 400, 'amount', () => payout({ amount: -100 })],
    ['a fractional amount', 400, 'amount', () => payout({ amount: 10.5 })],
    ['an amount as a string', 400, 'amount', () => payout({ amount: '1000' })],
    ['a currency other than the wallet', 422, 'currency', () => payout({ currency: 'USD' })],
    ['an unknown destination', 422, 'destinationId', () => payout({ destinationId: '00000000-0000-4000-8000-000000000000' })],
    ['a destination id that is not a UUID', 400, 'destinationId', () => payout({ destinationId: 'card-1' })],
    ['an unknown field', 400, 'priority', () => payout({ priority: 'high' })],
  ])('payout with %s → %i naming %s', async (_label, status, field, body) => {
    expectRefused(await t.api().post('/api/v1/payouts').send(body()), status, field);
  });

  it.each<[string, number, string, () => Body]>([
    ['no items', 400, 'items', () => ({ items: [] })],
    ['10,001 items', 400, 'items', () => ({ items: Array.from({ length: 10_001 }, () => payout({})) })],
    ['one fractional amount among good items', 400, 'items.2.amount', () => ({ items: [payout({}), payout({}), payout({ amount: 0.5 })] })],
    ['one foreign currency among good items', 422, 'items.1.currency', () => ({ items: [payout({}), payout({ currency: 'EUR' }), payout({})] })],
    ['one unknown destination among good items', 422, 'items.0.destinationId', () => ({ items: [payout({ destinationId: '00000000-0000-4000-8000-000000000001' }), payout({})] })],
  ])('batch with %s → %i naming %s, and none of its payouts is kept', async (_label, status, field, body) => {
    expectRefused(await t.api().post('/api/v1/payouts/batches').send(body()), status, field);
  });

  it('unknown ids answer 404 and malformed ids 400', async () => {
    expect((await t.api().get('/api/v1/payouts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.api().get('/api/v1/payouts/batches/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.api().get('/api/v1/payouts/destinations/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.api().get('/api/v1/payouts/not-a-uuid')).status).toBe(400);
    expect((await t.api().get('/api/v1/payouts?status=lost')).status).toBe(400);
  });

  it('a payout before the setup exists is refused (422) and nothing is sent', async () => {
    await t.dataSource.query('DELETE FROM payout_setup');
    try {
      expectRefused(await t.api().post('/api/v1/payouts').send(payout({})), 422, 'set up');
      expectRefused(await t.api().post('/api/v1/payouts/destinations').send(destinationWith({})), 422, 'set up');
    } finally {
      await setUpPayouts(t);
    }
  });

  it('kept no card number or CVV in the log', async () => {
    // Runs the processor too: with nothing stored, it must have nothing to send.
    expect((await t.processor.runOnce()).steps).toBe(0);
    expect(cardDataIn(t.logs)).toEqual([]);
  });
});
