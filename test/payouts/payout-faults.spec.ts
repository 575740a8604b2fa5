import { PAYOUT_QUEUE, PayoutQueue } from '../../src/payouts/payout-queue';
import { LeaseLostError } from '../../src/work/lease-lost.error';
import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { addFaults, authorizedDestination, futureExpDate, getPayout, ledgerWithdrawals, setUpPayouts, TEST_CVV } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';

describe('Single payouts under provider faults: an unknown outcome is replayed, never re-sent under a new externalID', () => {
  let t: PayoutTestApp;
  let destinationId: string;

  beforeAll(async () => {
    await resetDatabase();
    // A payout that failed for a technical reason waits an hour: with the usual 20 ms, one run on a busy machine
    // outlasted the backoff and took the payout again before the test could look at it. The test ends it.
    t = await startPayoutTestApp({ workTuning: { backoffMs: 3_600_000, maxBackoffMs: 3_600_000 } });
    await setUpPayouts(t);
    destinationId = (await authorizedDestination(t, CARDS.success)).id;
  });

  afterEach(async () => {
    await t.sandboxClient.control.clearFaults();
  });

  afterAll(async () => {
    await t?.close();
  });

  const newPayout = async (): Promise<string> => {
    const res = await t.api().post('/api/v1/payouts').send({ destinationId, amount: 777, currency: 'RUB' });
    expect(res.status).toBe(202);
    return res.body.id as string;
  };
  const row = async (id: string) =>
    (await t.dataSource.query<{ status: string; technical_failures: number; not_before: Date | null; lease_owner: string | null }[]>(
      'SELECT status, technical_failures, not_before, lease_owner FROM payouts WHERE id = $1',
      [id],
    ))[0];
  /** Ends the payout's backoff, then runs the processor until the payout is final. */
  const passesUntilSettled = async (id: string) => {
    await t.dataSource.query('UPDATE payouts SET not_before = now() WHERE id = $1', [id]);
    return waitFor(
      async () => {
        await t.processor.runOnce();
        return getPayout(t, id);
      },
      (payout) => payout.status === 'succeeded' || payout.status === 'failed',
      { everyMs: 50, what: `payout ${id} settled` },
    );
  };
  const externalIdOf = (id: string) => `w${id.replace(/-/g, '')}`;
  const withdrawalCallsFor = async (id: string) =>
    (await t.sandboxClient.control.requests('createWithdrawal')).filter((r) => (r.body as { externalID?: string }).externalID === externalIdOf(id));

  it.each(['timeout_after_effect', 'reset_after_effect', 'unavailable', 'reset_before_effect'] as const)(
    'createWithdrawal failing every try with %s: the payout waits, then the same request is replayed and it succeeds once',
    async (kind) => {
      // Four failures use up the gateway's own retries of one call (1 + 3).
      await addFaults(t, [{ operation: 'createWithdrawal', kind, count: 4 }]);
      const id = await newPayout();
      await t.processor.runOnce();
      expect(await row(id)).toMatchObject({ status: 'pending', technical_failures: 1, not_before: expect.any(Date), lease_owner: null });
      expect((await getPayout(t, id)).status).toBe('pending');

      const payout = await passesUntilSettled(id);
      expect(payout.status).toBe('succeeded');

      const calls = await withdrawalCallsFor(id);
      expect(calls.length).toBeGreaterThanOrEqual(5);
      // Every try carried the very same body: the provider can only ever make one withdrawal of it.
      expect(new Set(calls.map((c) => JSON.stringify(c.body))).size).toBe(1);
      const ledger = (await ledgerWithdrawals(t)).filter((w) => w.externalID === externalIdOf(id));
      expect(ledger).toEqual([expect.objectContaining({ withdrawalID: payout.withdrawalId, status: 'Succeeded', amount: 777 })]);
    },
  );

  it('getWithdrawal failing every try: the payout stays processing with its withdrawal, then settles', async () => {
    await addFaults(t, [{ operation: 'getWithdrawal', kind: 'timeout_after_effect', count: 4 }]);
    const id = await newPayout();
    await t.processor.runOnce();
    expect(await row(id)).toMatchObject({ status: 'processing', technical_failures: 1, lease_owner: null });
    expect((await passesUntilSettled(id)).status).toBe('succeeded');
    expect(await withdrawalCallsFor(id)).toHaveLength(1);
  });

  const destinationBody = () => ({
    name: 'Faulty',
    currency: 'RUB',
    card: { cardNumber: CARDS.secondSuccess, expDate: futureExpDate(), cardHolder: 'ANNA K', cvv: TEST_CVV },
  });

  it('a destination create whose answer is lost is repeated with the same externalID within the request: one destination', async () => {
    await addFaults(t, [{ operation: 'createDestination', kind: 'reset_after_effect', count: 1 }]);
    const res = await t.api().post('/api/v1/payouts/destinations').send(destinationBody());
    expect(res.status).toBe(201);
    const calls = (await t.sandboxClient.control.requests('createDestination')).filter((r) => (r.body as { externalID?: string }).externalID === `d${(res.body.id as string).replace(/-/g, '')}`);
    expect(calls).toHaveLength(2);
    expect(calls[1].status).toBe(201);
    expect(res.body.providerDestinationId).toEqual(expect.any(String));
  });

  it('a destination create that stays unknown answers 504 like every unknown outcome, keeps no usable destination, and says to send the card again; a new request makes one', async () => {
    await addFaults(t, [{ operation: 'createDestination', kind: 'timeout_after_effect', count: 8 }]);
    const failed = await t.api().post('/api/v1/payouts/destinations').send(destinationBody());
    expect(failed.status).toBe(504);
    expect(failed.body.code).toBe('provider_timeout');
    expect(failed.body.message).toMatch(/send the card again/);
    const [row] = await t.dataSource.query<{ id: string; status: string }[]>(`SELECT id, status FROM payout_destinations WHERE name = 'Faulty' AND status = 'failed'`);
    expect(row).toBeDefined();
    // Payouts cannot use it.
    const refused = await t.api().post('/api/v1/payouts').send({ destinationId: row.id, amount: 100, currency: 'RUB' });
    expect(refused.status).toBe(422);
    await t.sandboxClient.control.clearFaults();
    expect((await t.api().post('/api/v1/payouts/destinations').send(destinationBody())).status).toBe(201);
  });

  it('tokenization unavailable: 503, nothing stored, nothing created', async () => {
    const before = (await t.sandboxClient.control.requests('createDestination')).length;
    const count = async () => (await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payout_destinations'))[0].n;
    const stored = await count();
    await addFaults(t, [{ operation: 'tokenizeBankCard', kind: 'unavailable', count: 4 }]);
    const res = await t.api().post('/api/v1/payouts/destinations').send(destinationBody());
    expect(res.status).toBe(503);
    expect(await count()).toBe(stored);
    expect((await t.sandboxClient.control.requests('createDestination')).length).toBe(before);
  });

  it('a worker whose claim was taken over cannot write: the fence refuses it', async () => {
    const id = await newPayout();
    const queue = t.app.get<PayoutQueue>(PAYOUT_QUEUE);
    const [claim] = await queue.claim(1, { dueAt: new Date(Date.now() + 1000) });
    expect(claim.row.id).toBe(id);
    // Another process claims it after this one's heartbeat lapsed: its fence moves on.
    await t.dataSource.query('UPDATE payouts SET fence = fence + 1 WHERE id = $1', [id]);
    await expect(queue.write(claim, { status: 'succeeded' }, { release: true })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await row(id)).toMatchObject({ status: 'pending' });
    await t.dataSource.query('UPDATE payouts SET lease_owner = NULL WHERE id = $1', [id]);
    await t.processor.runOnce();
    expect((await getPayout(t, id)).status).toBe('succeeded');
  });

  it('a claimed payout is invisible to other claims while its owner heartbeats, and taken over once it stops', async () => {
    const id = await newPayout();
    const queue = t.app.get<PayoutQueue>(PAYOUT_QUEUE);
    const dueAt = new Date(Date.now() + 1000);
    const [first] = await queue.claim(10, { dueAt });
    expect(first.row.id).toBe(id);
    expect(await queue.claim(10, { dueAt })).toEqual([]);
    // Its owner is now a process that stopped heartbeating an hour ago (killed).
    await t.dataSource.query(`INSERT INTO workers (id, host, pid, heartbeat_at) VALUES ('killed-worker', 'h', 1, now() - interval '1 hour')`);
    await t.dataSource.query(`UPDATE payouts SET lease_owner = 'killed-worker' WHERE id = $1`, [id]);
    const [second] = await queue.claim(10, { dueAt });
    expect(second.row.id).toBe(id);
    expect(second.fence).toBeGreaterThan(first.fence);
    await queue.write(second, {}, { release: true });
    await t.processor.runOnce();
    expect((await getPayout(t, id)).status).toBe('succeeded');
  });
});
