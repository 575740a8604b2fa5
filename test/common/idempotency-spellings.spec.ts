import type { Server } from 'node:net';
import { idempotencyBodyHash } from '../../src/common/http/idempotency-scope';
import { IdempotencyRetentionService } from '../../src/common/http/idempotency-retention.service';
import { CARDS } from '../support/test-cards';
import { authorizedDestination, getPayout, ledgerWithdrawals, setUpPayouts } from '../payouts/support/payout-fixtures';
import { runUntil, startPayoutTestApp, PayoutTestApp } from '../payouts/support/payout-test-app';
import { listenOnLoopback, rawRequest, RawResponse } from '../support/raw-http';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase } from '../support/test-database';

const plan = { name: 'Spelled', product: 'Spelled', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] };

describe('Idempotency-Key is scoped to the route, not to the path as spelled', () => {
  let t: PayoutTestApp;
  let base: string;

  const post = (path: string, key: string, body: unknown): Promise<RawResponse> =>
    rawRequest(base, {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    base = await listenOnLoopback(t.app.getHttpServer() as Server);
  });
  afterAll(() => t?.close());

  it('makes one plan for one key under any spelling of the route, and answers each repeat like the first', async () => {
    const answers = [];
    for (const path of ['/api/v1/plans', '/api/v1/plans/', '/API/v1/Plans', '/api/V1/PLANS/']) answers.push(await post(path, 'plan-spelled', plan));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const a of answers) expect(a.json).toEqual(answers[0].json);
    const list = await t.api().get('/api/v1/plans?limit=200').expect(200);
    expect(list.body.items.filter((p: { name: string }) => p.name === 'Spelled')).toHaveLength(1);
  });

  it('keeps the same key apart on different routes and on different path parameters', async () => {
    const a = await post('/api/v1/plans', 'shared-key', { ...plan, name: 'A' });
    const b = await post('/api/v1/customers', 'shared-key', { email: 'shared@example.com' });
    expect([a.status, b.status]).toEqual([201, 201]);
    const archiveA = await post(`/api/v1/plans/${(a.json as { id: string }).id}/archive`, 'archive', {});
    const other = await post('/api/v1/plans', 'other', { ...plan, name: 'B' });
    const archiveB = await post(`/api/v1/plans/${(other.json as { id: string }).id}/archive`, 'archive', {});
    expect([archiveA.status, archiveB.status]).toEqual([200, 200]);
    expect((archiveB.json as { id: string }).id).toBe((other.json as { id: string }).id);
    // The same parameter in upper case is the same resource, so the same record.
    const upper = await post(`/api/v1/plans/${(a.json as { id: string }).id.toUpperCase()}/archive`, 'archive', {});
    expect(upper.json).toEqual(archiveA.json);
  });

  it('makes one payout and one withdrawal for one key under three spellings, and replays the 202 it sent', async () => {
    await setUpPayouts(t);
    const destination = await authorizedDestination(t, CARDS.success);
    const body = { destinationId: destination.id, amount: 1500, currency: 'RUB' };
    const answers = [];
    for (const path of ['/api/v1/payouts', '/api/v1/payouts/', '/api/v1/Payouts']) answers.push(await post(path, 'payout-once', body));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    const id = (answers[0].json as { id: string }).id;
    for (const a of answers) expect((a.json as { id: string }).id).toBe(id);
    await runUntil(t, async () => ((await getPayout(t, id)).status === 'succeeded' ? true : undefined));
    const payouts = await t.api().get('/api/v1/payouts?limit=200').expect(200);
    expect(payouts.body.items).toHaveLength(1);
    expect((await ledgerWithdrawals(t)).filter((w) => w.status === 'Succeeded')).toHaveLength(1);
  });

  it('keeps a record for days, not forever: a record older than seven days is pruned, a day-old one kept', async () => {
    await post('/api/v1/plans', 'old-key', { ...plan, name: 'Old' });
    await post('/api/v1/plans', 'day-old-key', { ...plan, name: 'DayOld' });
    const records = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM idempotency_records');
    // The two records just made: the older one aged past the retention, the newer one a day old.
    const [dayOld, old] = await t.dataSource.query<{ scope_hash: string }[]>('SELECT scope_hash FROM idempotency_records ORDER BY created_at DESC LIMIT 2');
    await t.dataSource.query(`UPDATE idempotency_records SET created_at = now() - interval '8 days' WHERE scope_hash = $1`, [old.scope_hash]);
    await t.dataSource.query(`UPDATE idempotency_records SET created_at = now() - interval '1 day' WHERE scope_hash = $1`, [dayOld.scope_hash]);
    expect(await t.app.get(IdempotencyRetentionService).prune()).toBe(1);
    expect((await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM idempotency_records'))[0].n).toBe(records[0].n - 1);
  });

  it('fingerprints a body without any key, and without the card secrets', () => {
    const card = { name: 'n', currency: 'RUB', card: { cardNumber: CARDS.success, expDate: '12/30', cardHolder: 'A B', cvv: '123' } };
    expect(idempotencyBodyHash(card)).toBe(idempotencyBodyHash({ ...card }));
    expect(idempotencyBodyHash(card)).not.toBe(idempotencyBodyHash({ ...card, name: 'm' }));
    expect(idempotencyBodyHash(card)).not.toBe(idempotencyBodyHash({ ...card, card: { ...card.card, cardNumber: CARDS.secondSuccess } }));
  });
});
