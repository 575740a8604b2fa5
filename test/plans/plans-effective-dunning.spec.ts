import { resetDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { Body, createPlanIn } from './support/plans-fixtures';

/** The plan answer shows the dunning its subscriptions get, under the default DUNNING_STRATEGY (smart). */
describe('plans API: the effective dunning', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { DUNNING_STRATEGY: 'smart', DUNNING_FINAL_ACTION: 'unpaid' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  const read = async (id: unknown) => (await t.api().get(`/api/v1/plans/${id as string}`).expect(200)).body as Body;

  it("shows the environment's smart dunning for a plan without its own, the plan's own otherwise, on every route", async () => {
    const plain = await createPlanIn(t);
    expect(plain.dunning).toEqual({ strategy: 'smart', maxDays: 21, finalAction: 'unpaid' });
    const ladder = await createPlanIn(t, { dunning: { retryDelays: ['12h', '2d'], finalAction: 'cancel' } });
    expect(ladder.dunning).toEqual({ strategy: 'fixed', retryDelays: ['12h', '2d'], finalAction: 'cancel' });
    const short = await createPlanIn(t, { dunning: { strategy: 'smart', maxDays: 14, finalAction: 'cancel' } });
    expect(short.dunning).toEqual({ strategy: 'smart', maxDays: 14, finalAction: 'cancel' });
    // A plan that says only `fixed` takes the environment's ladder (DUNNING_RETRY_DELAYS).
    const fixed = await createPlanIn(t, { dunning: { strategy: 'fixed', finalAction: 'cancel' } });
    expect(fixed.dunning).toEqual({ strategy: 'fixed', retryDelays: ['1d', '3d', '5d', '7d'], finalAction: 'cancel' });

    for (const plan of [plain, ladder, short, fixed]) expect((await read(plan.id)).dunning).toEqual(plan.dunning);
    const listed = (await t.api().get('/api/v1/plans?limit=100').expect(200)).body.items as Body[];
    expect(listed.map((p) => [p.id, p.dunning])).toEqual(expect.arrayContaining([plain, ladder, short, fixed].map((p) => [p.id, p.dunning])));

    // Back on the environment's dunning when the plan's own is removed.
    const patched = await t.api().patch(`/api/v1/plans/${ladder.id as string}`).send({ dunning: null }).expect(200);
    expect(patched.body.dunning).toEqual({ strategy: 'smart', maxDays: 21, finalAction: 'unpaid' });
  });
});
