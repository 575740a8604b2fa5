import { PayoutDestinationsService } from '../../src/payouts/payout-destinations.service';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { addFaults, createDestination, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';

interface DestinationRow {
  status: string;
  lease_owner: string | null;
  fence: number;
  next_sync_at: Date | null;
  authorized_at: Date | null;
}

const FAR = new Date('2099-01-01T00:00:00.000Z');
const OTHER = 'another-process';

/**
 * The destination follower writes a destination only under the claim it took: a holder that lost its claim while it
 * was reading the provider (a stall, a takeover) writes nothing, and makes no payout due.
 */
describe('the payout destination follower under a lost claim', () => {
  let t: PayoutTestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp({ tuning: { destinationPollMs: 10 } });
    await setUpPayouts(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function row(id: string): Promise<DestinationRow> {
    const [found] = await t.dataSource.query<DestinationRow[]>(
      'SELECT status, lease_owner, fence::float8 AS fence, next_sync_at, authorized_at FROM payout_destinations WHERE id = $1',
      [id],
    );
    return found;
  }

  async function payoutDueAt(id: string): Promise<Date> {
    const [found] = await t.dataSource.query<{ next_attempt_at: Date }[]>('SELECT next_attempt_at FROM payouts WHERE id = $1', [id]);
    return found.next_attempt_at;
  }

  async function leaseLostCount(): Promise<number> {
    const metrics = (await t.api().get('/metrics').expect(200)).text;
    return Number(/work_lease_lost_total\{queue="destinations"\} (\d+)/.exec(metrics)?.[1] ?? 0);
  }

  /** A follower pass that, once it holds the destination, loses its claim to another process; answers when it ends. */
  async function followWhileTakenOver(id: string): Promise<number> {
    // The first read is due after the poll interval.
    await waitFor(
      async () => (await t.dataSource.query<{ due: boolean }[]>('SELECT next_sync_at <= now() AS due FROM payout_destinations WHERE id = $1', [id]))[0].due,
      (due) => due,
      { everyMs: 5, what: 'the destination due for a read' },
    );
    const pass = t.app.get(PayoutDestinationsService).followDue();
    await waitFor(() => row(id), (found) => found.lease_owner !== null, { everyMs: 5, what: 'the follower claimed the destination' });
    await t.dataSource.query('UPDATE payout_destinations SET lease_owner = $2, fence = fence + 1, next_sync_at = $3 WHERE id = $1', [id, OTHER, FAR]);
    return pass;
  }

  it('writes nothing when the provider says Authorized after the claim was lost, and makes no payout due', async () => {
    const destination = await createDestination(t, CARDS.success);
    const payout = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 500, currency: 'RUB' }).expect(202);
    // The payout waits for its destination (as after a recheck): only the destination's new holder may wake it.
    await t.dataSource.query('UPDATE payouts SET next_attempt_at = $2 WHERE id = $1', [payout.body.id, FAR]);
    // The read is held long enough for the test to take the claim over meanwhile, however busy the machine.
    await addFaults(t, [{ operation: 'getDestination', kind: 'latency', latencyMs: 3_000, count: 1 }]);
    const lostBefore = await leaseLostCount();

    await followWhileTakenOver(destination.id);

    expect(await row(destination.id)).toMatchObject({ status: 'Unauthorized', lease_owner: OTHER, next_sync_at: FAR, authorized_at: null });
    expect(await payoutDueAt(payout.body.id)).toEqual(FAR);
    expect(await leaseLostCount()).toBe(lostBefore + 1);

    // The claim handed back, a holder that keeps its claim records Authorized and wakes the payout.
    await t.dataSource.query('UPDATE payout_destinations SET lease_owner = NULL, next_sync_at = now() WHERE id = $1', [destination.id]);
    await t.app.get(PayoutDestinationsService).followDue();
    expect(await row(destination.id)).toMatchObject({ status: 'Authorized', lease_owner: null, next_sync_at: null, authorized_at: expect.any(Date) });
    expect((await payoutDueAt(payout.body.id)).getTime()).toBeLessThan(Date.now() + 1_000);
  });

  it('writes nothing when its read failed after the claim was lost', async () => {
    const destination = await createDestination(t, CARDS.success);
    // Each try is slow and ends in a 503, more times than the gateway retries: the read fails after the takeover.
    await addFaults(t, [{ operation: 'getDestination', kind: 'unavailable', latencyMs: 1_000, count: 10 }]);
    const lostBefore = await leaseLostCount();

    await followWhileTakenOver(destination.id);

    expect(await row(destination.id)).toMatchObject({ status: 'Unauthorized', lease_owner: OTHER, next_sync_at: FAR });
    expect(await leaseLostCount()).toBe(lostBefore + 1);
    await t.sandboxClient.control.clearFaults();
  });
});
