import type request from 'supertest';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { Plan } from '../../src/plans/plan.entity';
import type { TestApp } from '../support/test-app';
import { Body, createPlanIn, ISO, messages, UNKNOWN_ID, usePlansApp, UUID, validPlan } from './support/plans-fixtures';

let t: TestApp;
let plans: () => Promise<Plan[]>;

usePlansApp((started) => ({ t, plans } = started), { resetEach: true });

const createPlan = (overrides: Body = {}) => createPlanIn(t, overrides);

describe('plans API', () => {
  describe('POST /api/v1/plans', () => {
    it('creates a plan: derives the amount, fills the defaults and answers 201 with the plan', async () => {
      const res = await t.api().post('/api/v1/plans').send(validPlan());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Pro monthly',
        product: 'Pro plan',
        description: null,
        currency: 'RUB',
        interval: 'month',
        intervalCount: 1,
        trialDays: 0,
        lines: [
          { product: 'Seat', price: 1000, quantity: 2, taxRate: '22%' },
          { product: 'Support', price: 500, quantity: 1 },
        ],
        amount: 2500,
        setupFee: null,
        setupFeeTaxRate: null,
        taxRatesCurrent: true,
        shopId: SANDBOX_SHOP_ID,
        // No dunning of its own: the environment's (the tests run DUNNING_STRATEGY=fixed).
        dunning: { strategy: 'fixed', retryDelays: ['1d', '3d', '5d', '7d'], finalAction: 'cancel' },
        metadata: {},
        status: 'active',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await t.api().get(`/api/v1/plans/${res.body.id}`)).body).toEqual(res.body);
      expect(await plans()).toHaveLength(1);
    });

    it('keeps every optional field given', async () => {
      const body = await createPlan({
        description: 'Billed monthly',
        intervalCount: 3,
        trialDays: 14,
        shopId: 'shop-42',
        dunning: { strategy: 'fixed', retryDelays: ['12h', '2d'], finalAction: 'unpaid' },
        metadata: { tier: 'pro', limits: { seats: 5 }, tags: ['a', 'b'], beta: true, note: null },
      });
      expect(body).toMatchObject({
        description: 'Billed monthly',
        intervalCount: 3,
        trialDays: 14,
        shopId: 'shop-42',
        dunning: { retryDelays: ['12h', '2d'], finalAction: 'unpaid' },
        metadata: { tier: 'pro', limits: { seats: 5 }, tags: ['a', 'b'], beta: true, note: null },
      });
    });

    it.each([
      ['day', 1096],
      ['week', 156],
      ['month', 36],
      ['year', 3],
    ])('accepts the longest period: %s × %i', async (interval, intervalCount) => {
      expect((await createPlan({ interval, intervalCount })).intervalCount).toBe(intervalCount);
    });

    it('accepts boundary values: 100 lines, 730 trial days, an amount of exactly 10^15, 15 retry delays', async () => {
      const lines = Array.from({ length: 100 }, (_, i) => ({ product: `L${i}`, price: 10_000_000_000_000 }));
      const body = await createPlan({ lines, trialDays: 730, dunning: { retryDelays: Array(15).fill('1d'), finalAction: 'cancel' } });
      expect(body.amount).toBe(1_000_000_000_000_000);
      expect(body.trialDays).toBe(730);
      const empty = await createPlan({ dunning: { retryDelays: [], finalAction: 'cancel' }, description: '' });
      expect(empty.dunning).toEqual({ strategy: 'fixed', retryDelays: [], finalAction: 'cancel' });
    });

    it('answers 400 for a body that is not JSON or not an object, and stores nothing', async () => {
      const bad = await t.api().post('/api/v1/plans').set('Content-Type', 'application/json').send('{"name": ');
      expect(bad.status).toBe(400);
      const array = await t.api().post('/api/v1/plans').send([validPlan()]);
      expect(array.status).toBe(400);
      expect(await plans()).toHaveLength(0);
    });
  });

  describe('GET /api/v1/plans', () => {
    it('lists newest first, page by page, with nextCursor null on the last page', async () => {
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await createPlan({ name: `Plan ${i}` })).id as string);
      const seen: string[] = [];
      let cursor: string | null = null;
      const sizes: number[] = [];
      do {
        const res: request.Response = await t.api().get('/api/v1/plans').query(cursor ? { limit: 2, cursor } : { limit: 2 });
        expect(res.status).toBe(200);
        sizes.push(res.body.items.length);
        seen.push(...res.body.items.map((p: Body) => p.id as string));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(sizes).toEqual([2, 2, 1]);
      expect(seen).toEqual([...created].reverse());
    });

    it('defaults to 50 per page and says null when everything fits', async () => {
      await createPlan();
      const res = await t.api().get('/api/v1/plans');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ items: [expect.objectContaining({ name: 'Pro monthly', amount: 2500 })], nextCursor: null });
    });

    it('filters by status', async () => {
      const kept = await createPlan({ name: 'kept' });
      const archived = await createPlan({ name: 'old' });
      await t.api().post(`/api/v1/plans/${archived.id}/archive`).expect(200);
      const active = await t.api().get('/api/v1/plans?status=active');
      expect(active.body.items.map((p: Body) => p.id)).toEqual([kept.id]);
      const old = await t.api().get('/api/v1/plans?status=archived');
      expect(old.body.items.map((p: Body) => p.id)).toEqual([archived.id]);
      expect((await t.api().get('/api/v1/plans?status=deleted')).status).toBe(400);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['cursor=%24%24%24', 'cursor'],
      ['sort=name', 'property sort should not exist'],
    ])('answers 400 for ?%s', async (query, field) => {
      const res = await t.api().get(`/api/v1/plans?${query}`);
      expect(res.status).toBe(400);
      expect(messages(res.body).join('\n')).toContain(field);
    });

    it('accepts limit=1 and limit=200', async () => {
      await createPlan();
      await createPlan();
      expect((await t.api().get('/api/v1/plans?limit=1')).body.items).toHaveLength(1);
      expect((await t.api().get('/api/v1/plans?limit=200')).body.items).toHaveLength(2);
    });
  });

  describe('GET /api/v1/plans/:id', () => {
    it('answers 404 for an unknown id and 400 for an id that is not a UUID', async () => {
      expect((await t.api().get(`/api/v1/plans/${UNKNOWN_ID}`)).status).toBe(404);
      const bad = await t.api().get('/api/v1/plans/123');
      expect(bad.status).toBe(400);
      expect(messages(bad.body)).toContain('id must be a UUID');
    });
  });
});
