import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChargesRepository } from '../../src/billing/charges.repository';
import { OneOffChargesRepository } from '../../src/billing/one-off-charges.repository';
import { WorkerRegistryService } from '../../src/work/worker-registry.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

const DAY_MS = 86_400_000;

/**
 * Charges that wait for their customer's card (after a hard decline, or a one-off before the first card) are woken by
 * the engine's one wake (LeasedQueue.wakeAll): due at once with their domain changes, under the engine's lease rule,
 * so a row a live worker holds is left to it and a dead holder's row is woken for the next claim.
 */
describe('waking the charges that wait for a card', () => {
  let t: TestApp;
  let db: DataSource;
  const now = new Date(Date.UTC(2031, 0, 15, 12));

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp();
    db = t.app.get(DataSource);
  });

  afterAll(async () => {
    await t?.close();
  });

  const customer = async (status: string, activeBindingId: string | null): Promise<string> => {
    const id = randomUUID();
    await db.query(`INSERT INTO customers (id, provider_customer_id, shop_id, status, active_binding_id) VALUES ($1, $2, 'shop', $3, $4)`, [id, `p-${id.slice(0, 8)}`, status, activeBindingId]);
    return id;
  };

  const charge = async (customerId: string, row: { status: string; step: string; nextAttemptAt: Date | null; declinedBindingId?: string; leaseOwner?: string; lastErrorCode?: string }) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO charges (id, customer_id, period_index, period_start, period_end, amount, currency, status, step, invoice_external_id,
                            next_attempt_at, declined_binding_id, lease_owner, last_error_code, kind)
       VALUES ($1, $2, 0, $3, $3, 1000, 'RUB', $4, $5, $6, $7, $8, $9, $10, $11)`,
      [id, customerId, now, row.status, row.step, `x${id.slice(0, 30)}`, row.nextAttemptAt, row.declinedBindingId ?? null, row.leaseOwner ?? null, row.lastErrorCode ?? null, row.step === 'await_customer' ? 'one_off' : 'period'],
    );
    return id;
  };

  const read = async (id: string) =>
    ((await db.query(`SELECT status, step, next_attempt_at, declined_binding_id, last_error_code FROM charges WHERE id = $1`, [id])) as Record<string, unknown>[])[0];

  it('makes due now the hard-declined charges of a customer with a new card, save the one a live worker holds', async () => {
    const live = t.app.get(WorkerRegistryService);
    await live.ensureRegistered();
    await db.query(`INSERT INTO workers (id, host, pid, heartbeat_at) VALUES ('dead-worker', 'gone', 1, now() - interval '1 hour')`);
    const deadline = new Date(now.getTime() + 10 * DAY_MS);
    const waiting = { status: 'failed', step: 'awaiting_card', nextAttemptAt: deadline, declinedBindingId: 'card-1' };
    const newCard = await customer('ready', 'card-2');
    const free = await charge(newCard, waiting);
    const heldByLive = await charge(newCard, { ...waiting, leaseOwner: live.workerId });
    const heldByDead = await charge(newCard, { ...waiting, leaseOwner: 'dead-worker' });
    const sameCard = await charge(await customer('ready', 'card-1'), waiting);

    expect(await t.app.get(ChargesRepository).wakeAwaitingNewCard(now, newCard)).toBe(2);

    const woken = { status: 'retrying', step: 'create_payment', next_attempt_at: now, declined_binding_id: null };
    expect(await read(free)).toMatchObject(woken);
    expect(await read(heldByDead)).toMatchObject(woken);
    // Its deadline came and a live worker applies the final action: a new card does not move it under that worker.
    expect(await read(heldByLive)).toMatchObject({ status: 'failed', step: 'awaiting_card', next_attempt_at: deadline });
    expect(await read(sameCard)).toMatchObject({ step: 'awaiting_card', next_attempt_at: deadline });
  });

  it('makes due now the one-offs that waited for their customer to become ready, and only those', async () => {
    const ready = await customer('ready', 'card-9');
    const notReady = await customer('pending', null);
    const waiting = { status: 'pending', step: 'await_customer', nextAttemptAt: null, lastErrorCode: 'customer_not_ready' };
    const wakes = await charge(ready, waiting);
    const stays = await charge(notReady, waiting);

    expect(await t.app.get(OneOffChargesRepository).wakeWaitingForCustomer(now)).toBe(1);

    expect(await read(wakes)).toMatchObject({ status: 'pending', step: 'create_invoice', next_attempt_at: now, last_error_code: null });
    expect(await read(stays)).toMatchObject({ step: 'await_customer', next_attempt_at: null, last_error_code: 'customer_not_ready' });
  });
});
