import request from 'supertest';
import { DataSource } from 'typeorm';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { Plan } from '../../src/plans/plan.entity';
import { PlansService } from '../../src/plans/plans.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Body = Record<string, unknown>;

function validPlan(overrides: Body = {}): Body {
  return {
    name: 'Pro monthly',
    product: 'Pro plan',
    currency: 'RUB',
    interval: 'month',
    lines: [
      { product: 'Seat', price: 1000, quantity: 2, taxRate: '20%' },
      { product: 'Support', price: 500 },
    ],
    ...overrides,
  };
}

let t: TestApp;
let plans: () => Promise<Plan[]>;

beforeAll(async () => {
  t = await startTestApp();
  const dataSource = t.app.get(DataSource);
  plans = () => dataSource.getRepository(Plan).find({ order: { createdAt: 'ASC' } });
});

afterAll(async () => {
  await t?.close();
});

async function createPlan(overrides: Body = {}): Promise<Body> {
  const res = await t.api().post('/api/v1/plans').send(validPlan(overrides));
  expect(res.status).toBe(201);
  return res.body as Body;
}

/** The 400 body's messages; the contract allows a string or a list. */
function messages(body: unknown): string[] {
  const message = (body as { message?: unknown }).message;
  return Array.isArray(message) ? (message as string[]) : [String(message)];
}

describe('plans API', () => {
  beforeEach(async () => {
    await resetDatabase();
  });

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
          { product: 'Seat', price: 1000, quantity: 2, taxRate: '20%' },
          { product: 'Support', price: 500, quantity: 1 },
        ],
        amount: 2500,
        shopId: SANDBOX_SHOP_ID,
        dunning: null,
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
        dunning: { retryDelays: ['12h', '2d'], finalAction: 'unpaid' },
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
      expect(empty.dunning).toEqual({ retryDelays: [], finalAction: 'cancel' });
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

  describe('PATCH /api/v1/plans/:id', () => {
    it('changes name, description, dunning and metadata, and nothing else', async () => {
      const plan = await createPlan({ description: 'old', metadata: { a: 1, b: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await t
        .api()
        .patch(`/api/v1/plans/${plan.id}`)
        .send({ name: 'Renamed', description: 'new', dunning: { retryDelays: ['1h'], finalAction: 'unpaid' }, metadata: { c: 3 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...plan,
        name: 'Renamed',
        description: 'new',
        dunning: { retryDelays: ['1h'], finalAction: 'unpaid' },
        // Metadata is replaced as a whole, not merged.
        metadata: { c: 3 },
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(plan.updatedAt as string));
      expect((await t.api().get(`/api/v1/plans/${plan.id}`)).body).toEqual(res.body);
    });

    it('null clears the description and puts the plan back on the environment ladder', async () => {
      const plan = await createPlan({ description: 'text', dunning: { retryDelays: ['1d'], finalAction: 'unpaid' } });
      const res = await t.api().patch(`/api/v1/plans/${plan.id}`).send({ description: null, dunning: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ description: null, dunning: null });
    });

    it('an empty body changes nothing', async () => {
      const plan = await createPlan();
      const res = await t.api().patch(`/api/v1/plans/${plan.id}`).send({});
      expect(res.status).toBe(200);
      expect(res.body).toEqual(plan);
    });

    it.each([
      ['price', 1],
      ['lines', [{ product: 'x', price: 1 }]],
      ['currency', 'USD'],
      ['interval', 'year'],
      ['intervalCount', 2],
      ['trialDays', 3],
      ['product', 'Other'],
      ['shopId', 'other'],
      ['amount', 1],
      ['status', 'archived'],
      ['id', UNKNOWN_ID],
      ['createdAt', '2020-01-01T00:00:00.000Z'],
    ])('refuses %s with 400 naming it, and changes nothing (not even an allowed field sent with it)', async (field, value) => {
      const plan = await createPlan();
      const res = await t.api().patch(`/api/v1/plans/${plan.id}`).send({ name: 'Renamed', [field]: value });
      expect(res.status).toBe(400);
      expect(messages(res.body)).toContain(`property ${field} should not exist`);
      expect((await t.api().get(`/api/v1/plans/${plan.id}`)).body).toEqual(plan);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a 101-character name', { name: 'x'.repeat(101) }, 'name'],
      ['a name with NUL', { name: 'a\u0000' }, 'name'],
      ['a numeric description', { description: 5 }, 'description'],
      ['a 1001-character description', { description: 'x'.repeat(1001) }, 'description'],
      ['dunning without finalAction', { dunning: { retryDelays: ['1d'] } }, 'dunning.finalAction'],
      ['dunning with a bad delay', { dunning: { retryDelays: ['soon'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
      ['dunning as an array', { dunning: [] }, 'dunning'],
      ['null metadata', { metadata: null }, 'metadata'],
      ['array metadata', { metadata: [1] }, 'metadata'],
    ])('refuses %s with 400 naming the field, and changes nothing', async (_what, body, field) => {
      const plan = await createPlan();
      const res = await t.api().patch(`/api/v1/plans/${plan.id}`).send(body);
      expect(res.status).toBe(400);
      expect(messages(res.body).some((m) => m.startsWith(field))).toBe(true);
      expect((await t.api().get(`/api/v1/plans/${plan.id}`)).body).toEqual(plan);
    });

    it('answers 404 for an unknown id and 400 for a bad id', async () => {
      expect((await t.api().patch(`/api/v1/plans/${UNKNOWN_ID}`).send({ name: 'x' })).status).toBe(404);
      expect((await t.api().patch(`/api/v1/plans/${UNKNOWN_ID}`).send({})).status).toBe(404);
      expect((await t.api().patch('/api/v1/plans/not-a-uuid').send({ name: 'x' })).status).toBe(400);
    });
  });

  describe('POST /api/v1/plans/:id/archive', () => {
    it('archives with 200 and the plan; a second archive is fine and changes nothing', async () => {
      const plan = await createPlan();
      const first = await t.api().post(`/api/v1/plans/${plan.id}/archive`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ...plan, status: 'archived', updatedAt: expect.stringMatching(ISO) });
      const second = await t.api().post(`/api/v1/plans/${plan.id}/archive`);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect((await t.api().get(`/api/v1/plans/${plan.id}`)).body.status).toBe('archived');
    });

    it('an archived plan can still be renamed and keeps its status', async () => {
      const plan = await createPlan();
      await t.api().post(`/api/v1/plans/${plan.id}/archive`).expect(200);
      const res = await t.api().patch(`/api/v1/plans/${plan.id}`).send({ name: 'Legacy' });
      expect(res.body).toMatchObject({ name: 'Legacy', status: 'archived' });
    });

    it('answers 404 for an unknown id and 400 for a bad id', async () => {
      expect((await t.api().post(`/api/v1/plans/${UNKNOWN_ID}/archive`)).status).toBe(404);
      expect((await t.api().post('/api/v1/plans/xyz/archive')).status).toBe(400);
    });
  });

  describe('PlansService for other modules', () => {
    it('getForSubscription: the active plan, 404 when unknown, 422 when archived', async () => {
      const service = t.app.get(PlansService);
      const plan = await createPlan();
      expect((await service.getForSubscription(plan.id as string)).id).toBe(plan.id);
      await expect(service.getForSubscription(UNKNOWN_ID)).rejects.toMatchObject({ status: 404 });
      await t.api().post(`/api/v1/plans/${plan.id}/archive`).expect(200);
      await expect(service.getForSubscription(plan.id as string)).rejects.toMatchObject({
        status: 422,
        message: `plan ${plan.id} is archived: subscribe to an active plan`,
      });
    });

    it('effectiveDunning: the plan ladder when set, else the environment ladder (1d,3d,5d,7d then cancel)', async () => {
      const service = t.app.get(PlansService);
      const own = await service.get((await createPlan({ dunning: { retryDelays: ['12h', '2d'], finalAction: 'unpaid' } })).id as string);
      expect(service.effectiveDunning(own)).toEqual({ retryDelays: ['12h', '2d'], retryDelaysMs: [43_200_000, 172_800_000], finalAction: 'unpaid' });
      const plain = await service.get((await createPlan()).id as string);
      expect(service.effectiveDunning(plain)).toEqual({
        retryDelays: ['1d', '3d', '5d', '7d'],
        retryDelaysMs: [1, 3, 5, 7].map((d) => d * 86_400_000),
        finalAction: 'cancel',
      });
    });
  });

  describe('admin token', () => {
    it('answers 401 without a token or with a wrong one, on every plans route', async () => {
      const server = t.app.getHttpServer();
      const plan = await createPlan();
      const calls = [
        () => request(server).get('/api/v1/plans'),
        () => request(server).get(`/api/v1/plans/${plan.id}`),
        () => request(server).post('/api/v1/plans').send(validPlan()),
        () => request(server).patch(`/api/v1/plans/${plan.id}`).send({ name: 'x' }),
        () => request(server).post(`/api/v1/plans/${plan.id}/archive`),
      ];
      for (const call of calls) {
        expect((await call()).status).toBe(401);
        expect((await call().set('Authorization', 'Bearer wrong-token')).status).toBe(401);
      }
      expect(await plans()).toHaveLength(1);
      expect((await t.api().get(`/api/v1/plans/${plan.id}`)).body).toEqual(plan);
    });
  });
});

describe('POST /api/v1/plans validation: 400 naming the field, nothing stored', () => {
  const long = (n: number) => 'x'.repeat(n);
  const line = (overrides: Body) => ({ lines: [{ product: 'Seat', price: 100, ...overrides }] });
  const without = (field: string) => (body: Body) => {
    const copy = { ...body };
    delete copy[field];
    return copy;
  };
  const withoutLineField = (field: string) => (body: Body) => {
    const first = { ...(body.lines as Body[])[0] };
    delete first[field];
    return { ...body, lines: [first] };
  };
  const deep = (levels: number): unknown => (levels === 0 ? 'leaf' : { n: deep(levels - 1) });

  // [what, body change, the start of a message that names the field]
  const cases: [string, Body | ((body: Body) => Body), string][] = [
    ['name missing', without('name'), 'name must'],
    ['name empty', { name: '' }, 'name must'],
    ['name 101 chars', { name: long(101) }, 'name must'],
    ['name a number', { name: 5 }, 'name must'],
    ['name null', { name: null }, 'name must'],
    ['name with NUL', { name: 'a\u0000b' }, 'name must be valid Unicode text'],
    ['name with a lone surrogate', { name: 'a\ud800b' }, 'name must be valid Unicode text'],
    ['line product with NUL', line({ product: '\u0000' }), 'lines.0.product must be valid Unicode text'],
    ['product missing', without('product'), 'product must'],
    ['product empty', { product: '' }, 'product must'],
    ['product 101 chars', { product: long(101) }, 'product must'],
    ['product an array', { product: ['x'] }, 'product must'],
    ['description 1001 chars', { description: long(1001) }, 'description must'],
    ['description a number', { description: 1 }, 'description must'],
    ['description null', { description: null }, 'description must'],
    ['currency lower case', { currency: 'rub' }, 'currency must'],
    ['currency 4 letters', { currency: 'RUBX' }, 'currency must'],
    ['currency a number', { currency: 643 }, 'currency must'],
    ['currency missing', without('currency'), 'currency must'],
    ['interval unknown', { interval: 'fortnight' }, 'interval must'],
    ['interval capitalised', { interval: 'Month' }, 'interval must'],
    ['interval missing', without('interval'), 'interval must'],
    ['intervalCount 0', { intervalCount: 0 }, 'intervalCount must'],
    ['intervalCount negative', { intervalCount: -1 }, 'intervalCount must'],
    ['intervalCount fractional', { intervalCount: 1.5 }, 'intervalCount must'],
    ['intervalCount a string', { intervalCount: '1' }, 'intervalCount must'],
    ['intervalCount null', { intervalCount: null }, 'intervalCount must'],
    ['37 months', { interval: 'month', intervalCount: 37 }, 'intervalCount must make one period at most 3 years'],
    ['157 weeks', { interval: 'week', intervalCount: 157 }, 'intervalCount must make one period at most 3 years'],
    ['1097 days', { interval: 'day', intervalCount: 1097 }, 'intervalCount must make one period at most 3 years'],
    ['4 years', { interval: 'year', intervalCount: 4 }, 'intervalCount must make one period at most 3 years'],
    ['trialDays negative', { trialDays: -1 }, 'trialDays must'],
    ['trialDays 731', { trialDays: 731 }, 'trialDays must'],
    ['trialDays fractional', { trialDays: 0.5 }, 'trialDays must'],
    ['trialDays a string', { trialDays: '7' }, 'trialDays must'],
    ['lines missing', without('lines'), 'lines must'],
    ['lines empty', { lines: [] }, 'lines must'],
    ['lines 101', { lines: Array.from({ length: 101 }, () => ({ product: 'x', price: 1 })) }, 'lines must'],
    ['lines an object', { lines: { product: 'x', price: 1 } }, 'lines must'],
    ['lines a string', { lines: 'x' }, 'lines must'],
    ['a line a number', { lines: [5] }, 'lines'],
    ['a line an array', { lines: [[{ product: 'x', price: 1 }]] }, 'each value in lines must be an object'],
    ['a line null', { lines: [null] }, 'lines'],
    ['line product missing', withoutLineField('product'), 'lines.0.product must'],
    ['line product empty', line({ product: '' }), 'lines.0.product must'],
    ['line product 1001 chars', line({ product: long(1001) }), 'lines.0.product must'],
    ['line product a number', line({ product: 5 }), 'lines.0.product must'],
    ['line price missing', withoutLineField('price'), 'lines.0.price must'],
    ['line price a string', line({ price: '5' }), 'lines.0.price must'],
    ['line price 0', line({ price: 0 }), 'lines.0.price must'],
    ['line price negative', line({ price: -100 }), 'lines.0.price must'],
    ['line price fractional', line({ price: 10.5 }), 'lines.0.price must'],
    ['line price null', line({ price: null }), 'lines.0.price must'],
    ['line price over 10^15', line({ price: 1_000_000_000_000_001 }), 'lines.0.price must'],
    ['line price not a safe integer', line({ price: 2 ** 60 }), 'lines.0.price must'],
    ['line quantity 0', line({ quantity: 0 }), 'lines.0.quantity must'],
    ['line quantity a string', line({ quantity: '2' }), 'lines.0.quantity must'],
    ['line quantity fractional', line({ quantity: 1.5 }), 'lines.0.quantity must'],
    ['line quantity null', line({ quantity: null }), 'lines.0.quantity must'],
    ['line taxRate unknown', line({ taxRate: '5%' }), 'lines.0.taxRate must'],
    ['line taxRate a number', line({ taxRate: 20 }), 'lines.0.taxRate must'],
    ['line with an unknown field', line({ discount: 5 }), 'lines.0.property discount should not exist'],
    ['second line bad', { lines: [{ product: 'a', price: 1 }, { product: 'b', price: -1 }] }, 'lines.1.price must'],
    ['total over 10^15', { lines: [{ product: 'a', price: 1_000_000_000_000_000 }, { product: 'b', price: 1 }] }, 'lines must add up'],
    ['price × quantity overflows', line({ price: 1_000_000_000_000_000, quantity: 1_000_000_000_000_000 }), 'lines must add up'],
    ['shopId empty', { shopId: '' }, 'shopId must'],
    ['shopId 41 chars', { shopId: long(41) }, 'shopId must'],
    ['shopId a number', { shopId: 5 }, 'shopId must'],
    ['shopId null', { shopId: null }, 'shopId must'],
    ['dunning a string', { dunning: '1d' }, 'dunning'],
    ['dunning an array', { dunning: [] }, 'dunning must'],
    ['dunning null', { dunning: null }, 'dunning must'],
    ['dunning without finalAction', { dunning: { retryDelays: ['1d'] } }, 'dunning.finalAction must'],
    ['dunning without retryDelays', { dunning: { finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning finalAction unknown', { dunning: { retryDelays: [], finalAction: 'pause' } }, 'dunning.finalAction must'],
    ['dunning 16 delays', { dunning: { retryDelays: Array(16).fill('1d'), finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning delay not a duration', { dunning: { retryDelays: ['1x'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay a number', { dunning: { retryDelays: [86400], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay 0d', { dunning: { retryDelays: ['0d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay under a minute', { dunning: { retryDelays: ['30s'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay over a year', { dunning: { retryDelays: ['400d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay with spaces', { dunning: { retryDelays: [' 1d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delays a string', { dunning: { retryDelays: '1d,3d', finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning unknown field', { dunning: { retryDelays: [], finalAction: 'cancel', maxDays: 3 } }, 'dunning.property maxDays should not exist'],
    ['metadata an array', { metadata: ['a'] }, 'metadata must be a JSON object'],
    ['metadata a string', { metadata: 'a' }, 'metadata must be a JSON object'],
    ['metadata null', { metadata: null }, 'metadata must be a JSON object'],
    ['metadata 51 keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata must have at most 50 keys'],
    ['metadata over 16 KB', { metadata: { blob: long(16 * 1024) } }, 'metadata must be at most 16384 bytes'],
    ['metadata an empty key', { metadata: { '': 1 } }, 'metadata keys must be'],
    ['metadata nested 12 levels', { metadata: deep(12) as Body }, 'metadata must be nested at most 10 levels'],
    ['metadata with NUL', { metadata: { note: 'a\u0000b' } }, 'metadata.note must be valid Unicode text'],
    ['metadata key with NUL', { metadata: { 'a\u0000': 1 } }, 'metadata must hold valid Unicode text'],
    ['metadata with a lone surrogate deep inside', { metadata: { a: [{ b: '\udc00' }] } }, 'metadata.a.0.b must be valid Unicode text'],
    ['unknown field', { color: 'red' }, 'property color should not exist'],
    ['amount given', { amount: 1 }, 'property amount should not exist'],
    ['status given', { status: 'archived' }, 'property status should not exist'],
    ['id given', { id: UNKNOWN_ID }, 'property id should not exist'],
  ];

  beforeAll(async () => {
    await resetDatabase();
  });

  it.each(cases)('%s', async (_what, change, expected) => {
    const body = typeof change === 'function' ? change(validPlan()) : validPlan(change);
    const res = await t.api().post('/api/v1/plans').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const list = messages(res.body);
    expect(list.some((m) => m.startsWith(expected))).toBe(true);
    expect(await plans()).toHaveLength(0);
  });

  it('reports every bad field at once', async () => {
    const res = await t.api().post('/api/v1/plans').send({ name: '', currency: 'x', interval: 'hour', lines: [] });
    expect(res.status).toBe(400);
    const list = messages(res.body);
    for (const field of ['name', 'product', 'currency', 'interval', 'lines']) {
      expect(list.some((m) => m.startsWith(`${field} `))).toBe(true);
    }
    expect(await plans()).toHaveLength(0);
  });
});
