import type { PayoutResponse } from '../../src/payouts/payout-responses';
import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { CARDS } from '../support/test-cards';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { authorizedDestination, ledgerWithdrawals, SETUP_BODY, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

/**
 * Payouts whose database answer is lost: the daemon talks to PostgreSQL through a proxy that lets a statement
 * commit and then cuts its connection before the answer comes back (a lost acknowledgement), or that stands for a
 * database that is down. The daemon must never answer "nothing was done" for a payout that exists: a client
 * repeating it then pays twice.
 */
describe('payouts when the database answer is lost', () => {
  let proxy: PostgresFaultProxy;
  let t: PayoutTestApp;
  let destinationId: string;

  beforeAll(async () => {
    await resetDatabase();
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    t = await startPayoutTestApp({ databaseUrl: proxy.urlFor(testDatabaseUrl()) });
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success, 'Ivan')).id;
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  const payoutsOf = async (order: string): Promise<PayoutResponse[]> =>
    ((await t.api().get('/api/v1/payouts').query({ limit: 200 })).body.items as PayoutResponse[]).filter((p) => p.metadata.order === order);

  const answerOf = (res: { status: number; body: { code?: string }; headers: Record<string, string> }) => ({
    status: res.status,
    code: res.body.code,
    retryAfter: res.headers['retry-after'],
  });

  it('answers outcome_unknown, not "nothing was done", for a payout without a key whose insert committed and whose answer was lost', async () => {
    const lost = proxy.loseAnswerOf(/^INSERT INTO "payouts"/);
    const res = await t.api().post('/api/v1/payouts').send({ destinationId, amount: 9_801, currency: 'RUB', metadata: { order: 'no-key' } });
    await lost;
    expect(answerOf(res)).toEqual({ status: 503, code: 'outcome_unknown', retryAfter: '5' });
    expect(res.body.message).toMatch(/may have been made/);
    // It was made: a client told "nothing was done" would have sent it again and paid twice.
    expect((await payoutsOf('no-key')).map((p) => p.amount)).toEqual([9_801]);
  });

  it('with an Idempotency-Key, the repeat the answer asks for answers that payout: one payout, one withdrawal', async () => {
    const body = { destinationId, amount: 9_802, currency: 'RUB', metadata: { order: 'keyed' } };
    const lost = proxy.loseAnswerOf(/^INSERT INTO "payouts"/);
    const first = await t.api().post('/api/v1/payouts').set('Idempotency-Key', 'lost-payout-1').send(body);
    await lost;
    expect(answerOf(first)).toEqual({ status: 503, code: 'outcome_unknown', retryAfter: '5' });

    const again = await t.api().post('/api/v1/payouts').set('Idempotency-Key', 'lost-payout-1').send(body);
    expect(again.status).toBe(202);
    const made = await payoutsOf('keyed');
    expect(made.map((p) => p.id)).toEqual([again.body.id]);
    await runUntil(t, async () => ((await payoutsOf('keyed'))[0].status === 'succeeded' ? true : undefined));
    expect((await ledgerWithdrawals(t)).filter((w) => w.amount === 9_802)).toHaveLength(1);
  });

  it('answers database_unavailable when only the Idempotency-Key\'s own answer write is lost after a request that changed nothing', async () => {
    // Payouts are set up already: a repeat of the setup reads it and changes nothing.
    const cut = proxy.cutBefore(/^UPDATE idempotency_records SET status_code/);
    const res = await t.api().post('/api/v1/payouts/setup').set('Idempotency-Key', 'setup-again').send(SETUP_BODY);
    await cut;
    expect(answerOf(res)).toEqual({ status: 503, code: 'database_unavailable', retryAfter: '5' });
    expect((await t.api().post('/api/v1/payouts/setup').set('Idempotency-Key', 'setup-again').send(SETUP_BODY)).status).toBe(201);
  });

  it('answers database_unavailable ("nothing was done") when the database is down before the payout is written, and nothing was', async () => {
    const body = { destinationId, amount: 9_803, currency: 'RUB', metadata: { order: 'down' } };
    proxy.down();
    let res;
    try {
      res = await t.api().post('/api/v1/payouts').send(body);
    } finally {
      proxy.up();
    }
    expect(answerOf(res)).toEqual({ status: 503, code: 'database_unavailable', retryAfter: '5' });
    expect(res.body.message).toMatch(/nothing was done/);
    expect(await payoutsOf('down')).toEqual([]);
    // Repeating it, as that answer says, makes it once.
    expect((await t.api().post('/api/v1/payouts').send(body)).status).toBe(202);
    expect(await payoutsOf('down')).toHaveLength(1);
  });
});
