import { withdrawalExternalId } from '../../src/payouts/payout-identity';
import type { PayoutResponse } from '../../src/payouts/payout-responses';
import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { authorizedDestination, getPayout, ledgerWithdrawals, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

/**
 * A payout's `reference`: the merchant's own unique name for it. The same reference with the same body answers the
 * payout already made; with another body, 409. Its withdrawal's externalID derives from the reference alone, so the
 * reference submitted again after the database lost the payout (a restore) meets the provider's withdrawal instead of
 * making a second one.
 */
describe('payout references', () => {
  let t: PayoutTestApp;
  let destinationId: string;
  let otherDestinationId: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success, 'Ivan')).id;
    otherDestinationId = (await authorizedDestination(t, CARDS.secondSuccess, 'Maria')).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const settled = async (id: string): Promise<PayoutResponse> =>
    (
      await runUntil(t, async () => {
        const payout = await getPayout(t, id);
        return payout.status === 'succeeded' || payout.status === 'failed' ? payout : undefined;
      })
    ).value;

  /** What a restore to a point before the payout leaves: no row of it (the provider still has its withdrawal). */
  const forget = (payoutId: string) => t.dataSource.query('DELETE FROM payouts WHERE id = $1', [payoutId]);

  it('answers the existing payout for the same reference and body, and 409 naming it for another body', async () => {
    const body = { destinationId, amount: 1_000, currency: 'RUB', reference: 'inv-2027.0001', metadata: { order: 7 } };
    const first = await t.api().post('/api/v1/payouts').send(body);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ reference: 'inv-2027.0001', status: 'pending' });

    const again = await t.api().post('/api/v1/payouts').send({ ...body, destinationId: destinationId.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);

    for (const changed of [{ amount: 1_001 }, { metadata: { order: 8 } }, { destinationId: otherDestinationId }]) {
      const refused = await t.api().post('/api/v1/payouts').send({ ...body, ...changed });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'payout_reference_taken', field: 'reference', payoutId: first.body.id });
      expect(refused.body.message.join(' ')).toContain(first.body.id);
    }
    const listed = await t.api().get('/api/v1/payouts').query({ reference: 'inv-2027.0001' });
    expect(listed.body.items.map((p: PayoutResponse) => p.id)).toEqual([first.body.id]);
    expect((await t.api().get('/api/v1/payouts').query({ reference: 'no-such' })).body.items).toEqual([]);

    const payout = await settled(first.body.id);
    expect(payout.status).toBe('succeeded');
    const withdrawals = (await ledgerWithdrawals(t)).filter((w) => w.withdrawalID === payout.withdrawalId);
    expect(withdrawals).toEqual([expect.objectContaining({ externalID: withdrawalExternalId(payout.id, 'inv-2027.0001'), amount: 1_000 })]);
  });

  it('answers concurrent payouts with one reference with that one payout, and a concurrent batch with it with 409, never a 500', async () => {
    const body = { destinationId, amount: 1_200, currency: 'RUB', reference: 'race-1' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.api().post('/api/v1/payouts').send(body)));
    const made = (await t.api().get('/api/v1/payouts').query({ reference: 'race-1' })).body.items as PayoutResponse[];
    expect(made).toHaveLength(1);
    expect(answers.map((a) => ({ status: a.status === 202 ? 'made' : a.status === 200 ? 'existing' : a.status, id: a.body.id })).sort((a, b) => String(a.status).localeCompare(String(b.status)))).toEqual([
      ...Array.from({ length: 19 }, () => ({ status: 'existing', id: made[0].id })),
      { status: 'made', id: made[0].id },
    ]);

    const item = { destinationId, amount: 10, currency: 'RUB', reference: 'race-2' };
    const batches = await Promise.all(Array.from({ length: 10 }, () => t.api().post('/api/v1/payouts/batches').send({ items: [item] })));
    expect(batches.map((b) => b.status).sort()).toEqual([202, ...Array.from({ length: 9 }, () => 409)]);
    for (const refused of batches.filter((b) => b.status === 409)) expect(refused.body.code).toBe('payout_reference_taken');
  });

  it('refuses a malformed reference with a 400 naming the field, in a payout, a batch item and a list filter', async () => {
    for (const reference of ['', 'has space', 'x'.repeat(65), 'ünïcode', 42]) {
      const res = await t.api().post('/api/v1/payouts').send({ destinationId, amount: 10, currency: 'RUB', reference });
      expect(res.status).toBe(400);
      expect(res.body.fields).toContain('reference');
    }
    const batch = await t.api().post('/api/v1/payouts/batches').send({ items: [{ destinationId, amount: 10, currency: 'RUB', reference: 'a b' }] });
    expect(batch.status).toBe(400);
    expect(batch.body.fields).toContain('items.0.reference');
    expect((await t.api().get('/api/v1/payouts').query({ reference: 'a b' })).status).toBe(400);
  });

  it('refuses a batch whose references repeat or are taken, whole, and makes nothing', async () => {
    const before = (await t.api().get('/api/v1/payouts').query({ limit: 200 })).body.items.length;
    const item = (reference: string) => ({ destinationId, amount: 10, currency: 'RUB', reference });
    const repeated = await t.api().post('/api/v1/payouts/batches').send({ items: [item('b-1'), item('b-2'), item('b-1')] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message[0]).toContain('items.2.reference repeats items.0.reference');

    const taken = await t.api().post('/api/v1/payouts/batches').send({ items: [item('b-3'), item('inv-2027.0001')] });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'payout_reference_taken', field: 'items.1.reference' });
    expect((await t.api().get('/api/v1/payouts').query({ limit: 200 })).body.items).toHaveLength(before);

    const accepted = await t.api().post('/api/v1/payouts/batches').send({ items: [item('b-3'), item('b-4')] });
    expect(accepted.status).toBe(202);
    expect((await t.api().get('/api/v1/payouts').query({ reference: 'b-4' })).body.items[0]).toMatchObject({ batchId: accepted.body.id, reference: 'b-4' });
  });

  it('adopts the withdrawal the provider holds when a lost payout is submitted again under its reference', async () => {
    const body = { destinationId, amount: 2_500, currency: 'RUB', reference: 'restore-1' };
    const first = await settled((await t.api().post('/api/v1/payouts').send(body)).body.id);
    expect(first.status).toBe('succeeded');
    await forget(first.id);

    const again = await t.api().post('/api/v1/payouts').send(body);
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(first.id);
    const adopted = await settled(again.body.id);
    expect(adopted).toMatchObject({ status: 'succeeded', withdrawalId: first.withdrawalId, reference: 'restore-1' });
    expect((await ledgerWithdrawals(t)).filter((w) => w.externalID === withdrawalExternalId(first.id, 'restore-1'))).toHaveLength(1);
  });

  it('adopts it too when the body differs at the provider but the money is the same (a destination made again), and fails for a person when the money differs', async () => {
    const first = await settled((await t.api().post('/api/v1/payouts').send({ destinationId, amount: 3_000, currency: 'RUB', reference: 'restore-2' })).body.id);
    await forget(first.id);
    // The other destination's provider id differs, so the provider sees another body under the same externalID (409).
    const moved = await settled((await t.api().post('/api/v1/payouts').send({ destinationId: otherDestinationId, amount: 3_000, currency: 'RUB', reference: 'restore-2' })).body.id);
    expect(moved).toMatchObject({ status: 'succeeded', withdrawalId: first.withdrawalId });

    await forget(moved.id);
    const differs = await settled((await t.api().post('/api/v1/payouts').send({ destinationId, amount: 3_001, currency: 'RUB', reference: 'restore-2' })).body.id);
    expect(differs).toMatchObject({ status: 'failed', failureCode: 'withdrawal_conflict:amount_differs', withdrawalId: null });
    expect((await ledgerWithdrawals(t)).filter((w) => w.externalID === withdrawalExternalId(first.id, 'restore-2'))).toHaveLength(1);
  });
});
