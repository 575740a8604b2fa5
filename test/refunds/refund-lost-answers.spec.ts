import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { Engine } from '../billing/support/billing-fixtures';
import type { ChargeView } from '../billing/support/exactly-once';
import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { askRefund, assertRefundsExactlyOnce, listRefunds, paidCharges, settleRefunds, startRefundEngine } from './support/refund-fixtures';

/**
 * Refunds whose database answer is lost: the daemon talks to PostgreSQL through a proxy that lets the refund's
 * transaction commit and then cuts the connection before the answer comes back. The daemon must never answer
 * "nothing was done" for a refund that exists: a client repeating it would then give the money back twice. The answer
 * it gives says how to repeat safely, and repeating that way finds the refund made.
 */
describe('refunds when the database answer is lost', () => {
  let proxy: PostgresFaultProxy;
  let sandbox: SandboxClient;
  let engine: Engine;
  let charges: ChargeView[];

  beforeAll(async () => {
    await resetDatabase();
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    sandbox = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID });
    engine = await startRefundEngine(proxy.urlFor(testDatabaseUrl()), sandbox.url);
    ({ charges } = await paidCharges(engine, sandbox, 4));
  });

  afterAll(async () => {
    await engine?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  const answerOf = (res: { status: number; body: { code?: string }; headers: Record<string, string> }) => ({ status: res.status, code: res.body.code, retryAfter: res.headers['retry-after'] });
  /** The refund's transaction commits; its connection is cut before the answer comes back. */
  const loseTheCommit = () => proxy.loseAnswerOf(/^COMMIT/);

  it('answers outcome_unknown, not "nothing was done", for a refund whose transaction committed and whose answer was lost', async () => {
    const lost = loseTheCommit();
    const res = await askRefund(engine, charges[0].id, { amount: 600 });
    await lost;
    expect(answerOf(res)).toEqual({ status: 503, code: 'outcome_unknown', retryAfter: '5' });
    // It was made: a client told "nothing was done" would have asked again and refunded twice.
    expect((await listRefunds(engine, { chargeId: charges[0].id })).map((r) => r.amount)).toEqual([600]);
  });

  it('with a reference, asking again answers the refund made (200); with an Idempotency-Key, the repeat answers it too', async () => {
    const body = { amount: 700, reference: 'lost-answer-1' };
    let lost = loseTheCommit();
    expect(answerOf(await askRefund(engine, charges[1].id, body))).toMatchObject({ status: 503, code: 'outcome_unknown' });
    await lost;
    const again = await askRefund(engine, charges[1].id, body);
    expect(again.status).toBe(200);
    expect((await listRefunds(engine, { chargeId: charges[1].id })).map((r) => r.id)).toEqual([again.body.id]);

    lost = loseTheCommit();
    const keyed = await askRefund(engine, charges[2].id, { amount: 800, to: 'balance' }, 'lost-refund-key');
    await lost;
    expect(answerOf(keyed)).toMatchObject({ status: 503, code: 'outcome_unknown' });
    const repeated = await askRefund(engine, charges[2].id, { amount: 800, to: 'balance' }, 'lost-refund-key');
    expect(repeated.status).toBe(202);
    expect((await listRefunds(engine, { chargeId: charges[2].id })).map((r) => [r.id, r.status])).toEqual([[repeated.body.id, 'succeeded']]);
  });

  it('answers database_unavailable ("nothing was done") when the database is down before the refund is written, and nothing was', async () => {
    proxy.down();
    let res;
    try {
      res = await askRefund(engine, charges[3].id, { amount: 900 });
    } finally {
      proxy.up();
    }
    expect(answerOf(res)).toEqual({ status: 503, code: 'database_unavailable', retryAfter: '5' });
    expect(await listRefunds(engine, { chargeId: charges[3].id })).toEqual([]);
    expect((await askRefund(engine, charges[3].id, { amount: 900 })).status).toBe(202);
  });

  it('makes each refund whose answer was lost once at the provider', async () => {
    expect((await settleRefunds([engine])).settled).toBe(true);
    await assertRefundsExactlyOnce(engine, sandbox, 'refunds whose database answer was lost');
    expect((await sandbox.control.ledger()).refunds.map((r) => r.amount).sort()).toEqual([600, 700, 900]);
  });
});
