import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { authorizedDestination, getPayout, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

describe('payouts under the test clock', () => {
  let t: PayoutTestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp({ env: { TEST_CLOCK: 'true' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('settle on real time while the billing clock stands still far in the future', async () => {
    await t.api().post('/api/v1/test-clock').send({ now: '2031-06-01T00:00:00.000Z' }).expect(200);
    await setUpPayouts(t);
    const destination = await authorizedDestination(t, CARDS.success);
    const payout = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 2500, currency: 'RUB' }).expect(202);
    const { value } = await runUntil(t, async () => {
      const current = await getPayout(t, payout.body.id);
      return current.status === 'succeeded' || current.status === 'failed' ? current : undefined;
    });
    expect(value.status).toBe('succeeded');
  });
});
