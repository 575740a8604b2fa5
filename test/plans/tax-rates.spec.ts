import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { messages, validPlan } from './support/plans-fixtures';

/**
 * The VAT rates a plan line may carry are the ones in force (BILLING_TAX_RATES). When the law changes, the operator
 * changes the list: plans keep their lines, and those whose rate is no longer in force say so.
 */
describe('VAT rates in force', () => {
  let t: TestApp | undefined;

  beforeEach(() => resetDatabase());
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('takes the 2026 rates by default (22 %, and 5 % and 7 % with their fractions) and refuses the former 20 %, naming the line', async () => {
    t = await startTestApp();
    for (const rate of ['22%', '22/122', '5%', '5/105', '7%', '7/107', '10%', '10/110', '0%']) {
      const res = await t.api().post('/api/v1/plans').send(validPlan({ lines: [{ product: 'Seat', price: 1000, taxRate: rate }] }));
      expect([rate, res.status, res.body.taxRatesCurrent]).toEqual([rate, 201, true]);
    }
    const refused = await t.api().post('/api/v1/plans').send(validPlan({ lines: [{ product: 'Seat', price: 1000 }, { product: 'Old', price: 1, taxRate: '20%' }] }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', field: 'lines.1.taxRate' });
    expect(messages(refused.body)[0]).toBe('lines.1.taxRate must be one of the VAT rates in force (BILLING_TAX_RATES): 0%, 5%, 7%, 10%, 22%, 5/105, 7/107, 10/110, 22/122');
  });

  it('shows a plan made under an older list as no longer current once its rate leaves the list', async () => {
    t = await startTestApp({ env: { BILLING_TAX_RATES: '20%,20/120,22%' } });
    const old = await t.api().post('/api/v1/plans').send(validPlan({ lines: [{ product: 'Seat', price: 1000, taxRate: '20%' }] }));
    expect([old.status, old.body.taxRatesCurrent]).toEqual([201, true]);
    await t.close();

    t = await startTestApp();
    const read = await t.api().get(`/api/v1/plans/${old.body.id}`);
    expect(read.body).toMatchObject({ lines: [{ taxRate: '20%' }], taxRatesCurrent: false });
    const plain = await t.api().post('/api/v1/plans').send(validPlan({ lines: [{ product: 'Seat', price: 1000 }] }));
    expect(plain.body.taxRatesCurrent).toBe(true);
  });
});
