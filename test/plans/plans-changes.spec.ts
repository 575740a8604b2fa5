import request from 'supertest';
import type { Plan } from '../../src/plans/plan.entity';
import { PlansService } from '../../src/plans/plans.service';
import type { TestApp } from '../support/test-app';
import { sleep } from '../support/wait';
import { Body, createPlanIn, ISO, messages, UNKNOWN_ID, usePlansApp, validPlan } from './support/plans-fixtures';

let t: TestApp;
let plans: () => Promise<Plan[]>;

usePlansApp((started) => ({ t, plans } = started), { resetEach: true });

const createPlan = (overrides: Body = {}) => createPlanIn(t, overrides);

describe('plans API', () => {
  describe('PATCH /api/v1/plans/:id', () => {
    it('changes name, description, dunning and metadata, and nothing else', async () => {
      const plan = await createPlan({ description: 'old', metadata: { a: 1, b: 2 } });
      await sleep(5);
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
      expect(service.effectiveDunning(own)).toEqual({
        strategy: 'fixed',
        retryDelays: ['12h', '2d'],
        retryDelaysMs: [43_200_000, 172_800_000],
        windowMs: 216_000_000,
        maxDays: null,
        finalAction: 'unpaid',
      });
      const plain = await service.get((await createPlan()).id as string);
      expect(service.effectiveDunning(plain)).toEqual({
        retryDelays: ['1d', '3d', '5d', '7d'],
        retryDelaysMs: [1, 3, 5, 7].map((d) => d * 86_400_000),
        strategy: 'fixed',
        windowMs: 16 * 86_400_000,
        maxDays: null,
        finalAction: 'cancel',
      });
      const smart = await service.get((await createPlan({ dunning: { strategy: 'smart', finalAction: 'unpaid' } })).id as string);
      expect(service.effectiveDunning(smart)).toEqual({ strategy: 'smart', retryDelays: [], retryDelaysMs: [], windowMs: 21 * 86_400_000, maxDays: 21, finalAction: 'unpaid' });
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
