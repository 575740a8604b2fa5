import type { PayoutBatchResponse, PayoutDestinationResponse } from '../../src/payouts/payout-responses';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { authorizedDestination, createDestination, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

describe('payout destination and batch lists', () => {
  let t: PayoutTestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Every item of a list, following nextCursor with pages of `limit`. */
  async function walk<T>(path: string, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const res = await t
        .api()
        .get(path)
        .query({ limit, ...(cursor ? { cursor } : {}) })
        .expect(200);
      const page = res.body as Page<T>;
      items.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    return { items, pages };
  }

  it('lists destinations newest first, page by page (the path is a list, not an id)', async () => {
    const made: PayoutDestinationResponse[] = [];
    for (const name of ['first', 'second', 'third']) made.push(await createDestination(t, CARDS.success, name));
    const { items, pages } = await walk<PayoutDestinationResponse>('/api/v1/payouts/destinations', 2);
    expect(pages).toBe(2);
    expect(items.map((d) => d.name)).toEqual(['third', 'second', 'first']);
    expect(items[0]).toEqual(made[2]);
    // The shape of GET /destinations/:id, never card data.
    expect(items[0]).toMatchObject({ bin: '424242', lastDigits: '4242', currency: 'RUB' });
  });

  it('lists batches newest first with their current counts', async () => {
    const destination = await authorizedDestination(t, CARDS.success);
    const poor = await authorizedDestination(t, CARDS.insufficientFunds);
    const first = await t
      .api()
      .post('/api/v1/payouts/batches')
      .send({ items: [{ destinationId: destination.id, amount: 100, currency: 'RUB' }] })
      .expect(202);
    const second = await t
      .api()
      .post('/api/v1/payouts/batches')
      .send({
        items: [
          { destinationId: destination.id, amount: 200, currency: 'RUB' },
          { destinationId: poor.id, amount: 300, currency: 'RUB' },
        ],
      })
      .expect(202);
    await runUntil(t, async () => {
      const { items } = await walk<PayoutBatchResponse>('/api/v1/payouts/batches', 50);
      return items.every((b) => b.counts.succeeded + b.counts.failed === b.total) ? items : undefined;
    });

    const { items, pages } = await walk<PayoutBatchResponse>('/api/v1/payouts/batches', 1);
    expect(pages).toBe(2);
    expect(items).toEqual([
      { id: second.body.id, total: 2, counts: { pending: 0, processing: 0, succeeded: 1, failed: 1 }, createdAt: second.body.createdAt },
      { id: first.body.id, total: 1, counts: { pending: 0, processing: 0, succeeded: 1, failed: 0 }, createdAt: first.body.createdAt },
    ]);
    // One batch read alone answers the same as its list item.
    expect((await t.api().get(`/api/v1/payouts/batches/${first.body.id}`).expect(200)).body).toEqual(items[1]);
  });

  it.each(['/api/v1/payouts/destinations', '/api/v1/payouts/batches'])('refuses bad list input on %s with 400 naming the field', async (path) => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['unknown=1', 'property unknown should not exist'],
    ]) {
      const res = await t.api().get(`${path}?${query}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(field);
    }
  });
});
