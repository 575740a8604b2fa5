import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { createPlan, Engine, setClock, startEngine } from '../billing/support/billing-fixtures';
import { SandboxClient } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/time-limits';

const RACERS = 200;
const CAP = 50;

/**
 * A coupon's cap holds exactly across replicas: 200 requests for a coupon of 50 redemptions, split over two daemons on
 * one database and sent all at once, make exactly 50 discounted subscriptions and 150 refusals that make nothing.
 */
describe('coupon redemption caps across replicas', () => {
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

  it(
    'redeems a coupon of maxRedemptions 50 exactly 50 times out of 200 racing requests on two replicas',
    async () => {
      await setClock(one, '2027-01-05T10:00:00.000Z');
      const plan = await createPlan(one);
      const coupon = (await one.api().post('/api/v1/coupons').send({ code: 'FIFTY', name: 'Fifty only', percentOff: 20, duration: 'forever', maxRedemptions: CAP }).expect(201)).body;
      const customers: string[] = [];
      for (let i = 0; i < RACERS; i += 20) {
        const made = await Promise.all(Array.from({ length: 20 }, (_, k) => one.api().post('/api/v1/customers').send({ email: `racer${i + k}@example.com` }).expect(201)));
        customers.push(...made.map((res) => res.body.id as string));
      }
      const answers = await Promise.all(
        customers.map((customerId, i) => (i % 2 === 0 ? one : two).api().post('/api/v1/subscriptions').send({ customerId, planId: plan.id, couponCode: 'fifty' })),
      );
      const statuses = answers.map((res) => (res.status === 201 ? 'made' : `${res.status} ${res.body.code}`));
      expect(statuses.filter((x) => x === 'made')).toHaveLength(CAP);
      expect(statuses.filter((x) => x === '422 coupon_exhausted')).toHaveLength(RACERS - CAP);
      // Both replicas answered some of each.
      expect(new Set(answers.flatMap((res, i) => (res.status === 201 ? [i % 2] : [])))).toEqual(new Set([0, 1]));
      expect((await two.api().get(`/api/v1/coupons/${coupon.id}`).expect(200)).body.timesRedeemed).toBe(CAP);
      const subscriptions = (await one.api().get('/api/v1/subscriptions').query({ limit: 200 }).expect(200)).body.items as { discount: { code: string } | null }[];
      expect(subscriptions).toHaveLength(CAP);
      expect(subscriptions.every((s) => s.discount?.code === 'FIFTY')).toBe(true);
      // The cap stays reached: one more, on either replica, is refused.
      const late = await two.api().post('/api/v1/coupons').send({ code: 'OTHER', name: 'x', percentOff: 5, duration: 'once' }).expect(201);
      expect(late.body.timesRedeemed).toBe(0);
      const again = await two.api().post(`/api/v1/subscriptions`).send({ customerId: customers[0], planId: plan.id, couponCode: 'FIFTY' });
      expect([again.status, again.body.code]).toEqual([422, 'coupon_exhausted']);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
