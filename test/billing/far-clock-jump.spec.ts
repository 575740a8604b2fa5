import { DateTime } from 'luxon';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

/** Zones whose month starts fall on different UTC hours and days (half-hour offsets, the date line, DST both ways). */
const ZONES = ['Europe/Moscow', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'America/St_Johns', 'UTC'];
/** Far enough for catch-up: 14 periods begin during the jump, the cap (3) are charged and the 11 before skipped. */
const JUMP_MONTHS = 14;
const CATCH_UP = 3;

interface RunAnswer {
  due: number;
  succeeded: number;
  declined: number;
  unknown: number;
  created: number;
}

interface ChargeView {
  id: string;
  status: string;
  periodStart: string;
  invoiceId: string | null;
}

/**
 * The admin run answers once the work it took is settled. With the scheduler off nothing else works charges, so a
 * charge a run makes must be captured by that run, however far the test clock has jumped ahead of real time: the
 * charges are due by the billing clock, their real-time floors (backoffs, leases) by real time, and the two must
 * never be compared with each other.
 */
describe('billing runs after the test clock jumps more than a year, with the scheduler off', () => {
  let s: Scenario;
  let planId: string;

  // The production wait for a payment: a run answers when its charges are settled, on a busy machine too.
  beforeAll(async () => {
    s = await Scenario.start({ SCHEDULER_ENABLED: 'false' }, { paymentPollMs: 15_000 });
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Monthly', product: 'Monthly', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1500 }] })).id;
  });

  afterAll(async () => {
    await s?.close();
  });

  const chargesOf = async (subscriptionId: string) => (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${subscriptionId}/charges?limit=200`)).items;

  /** Runs billing and checks that every charge the run made was captured by it; answers those charges' period starts. */
  async function runCapturingAll(subscriptionIds: string[], expected: number): Promise<string[]> {
    const before = new Set((await Promise.all(subscriptionIds.map(chargesOf))).flat().map((c) => c.id));
    const run = await s.post<RunAnswer>('/api/v1/billing/run', {}, 200);
    const made = (await Promise.all(subscriptionIds.map(chargesOf))).flat().filter((c) => !before.has(c.id) && c.status !== 'skipped');
    const captured = new Set((await s.ledgerPayments()).filter((p) => p.status === 'captured').map((p) => p.invoiceID));
    expect({ run, made: made.map((c) => ({ status: c.status, captured: c.invoiceId !== null && captured.has(c.invoiceId) })) }).toEqual({
      run: { due: expected, succeeded: expected, declined: 0, unknown: 0, waitingForAllowedHours: 0, waitingForAttemptCap: 0, created: expected, skippedNotReady: 0, failedSubscriptions: 0 },
      made: made.map(() => ({ status: 'succeeded', captured: true })),
    });
    // Nothing was left behind for a later run.
    expect(await s.post<RunAnswer>('/api/v1/billing/run', {}, 200)).toMatchObject({ due: 0, created: 0 });
    return made.map((c) => c.periodStart).sort();
  }

  it('captures each charge in the run that made it, in every zone, before and after a 14-month jump with catch-up periods', async () => {
    for (const zone of ZONES) {
      const customer = await s.createCustomer();
      await s.bindCard(customer.id, CARDS.success);
      const clock = DateTime.fromISO((await s.get<{ now: string }>('/api/v1/test-clock')).now, { zone });
      const start = clock.startOf('month').plus({ months: 1 });
      const first = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, startAt: start.toISO(), timezone: zone });

      await s.setClock(start.toUTC().toISO() as string);
      expect(await runCapturingAll([first.id], 1)).toEqual([start.toUTC().toISO()]);

      const jumped = start.plus({ months: JUMP_MONTHS });
      await s.setClock(jumped.toUTC().toISO() as string);
      const second = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: zone });
      const periods = await runCapturingAll([first.id, second.id], CATCH_UP + 1);
      const catchUp = Array.from({ length: CATCH_UP }, (_, k) => start.plus({ months: JUMP_MONTHS - CATCH_UP + 1 + k }).toUTC().toISO());
      expect({ zone, periods }).toEqual({ zone, periods: [...catchUp, jumped.toUTC().toISO()].sort() });
      expect((await chargesOf(first.id)).filter((c) => c.status === 'skipped')).toHaveLength(JUMP_MONTHS - CATCH_UP);

      // The next zone's runs see only its own subscriptions.
      for (const { id } of [first, second]) await s.post(`/api/v1/subscriptions/${id}/cancel`, { atPeriodEnd: false }, 200);
    }
  });
});
