import { DateTime } from 'luxon';
import { CARDS } from '../support/test-cards';
import { Scenario } from '../scenarios/support/scenario';

/** The zones of the report: month starts on different UTC hours and days (half-hour offset, DST both ways). */
const ZONES = ['UTC', 'Europe/Moscow', 'Asia/Tokyo', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'];
const JUMP_MONTHS = 14;
const CATCH_UP = 3;
const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface RunAnswer {
  due: number;
  succeeded: number;
  declined: number;
  unknown: number;
  waitingForAllowedHours: number;
  waitingForAttemptCap: number;
  skippedNotReady: number;
  created: number;
  failedSubscriptions: number;
}

interface ChargeView {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  waitingFor: string | null;
  invoiceId: string | null;
  attempts: { status: string; createdAt: string }[];
}

const NOTHING: RunAnswer = { due: 0, succeeded: 0, declined: 0, unknown: 0, waitingForAllowedHours: 0, waitingForAttemptCap: 0, skippedNotReady: 0, created: 0, failedSubscriptions: 0 };
const utc = (t: DateTime) => t.toUTC().toISO() as string;

/**
 * The report: with the scheduler off and smart dunning (the default outside tests), a run at a local month start
 * answered `unknown` for every charge it made, after waiting 15 s for them, and the charges stayed `pending` through
 * any number of runs while the test clock stood still. They were not stuck: smart dunning makes every attempt between
 * 08:00 and 21:00 in the subscription's zone, so a charge due at local midnight waits for 08:00 on the billing clock.
 * The run says so (`waitingForAllowedHours`, never `unknown`: nothing is at the provider), and so does each charge
 * (`nextAttemptAt`, `waitingFor`); once the billing clock reaches 08:00 local, the next run captures them all.
 */
describe('charges waiting for the allowed hours of smart dunning, with the scheduler off', () => {
  let s: Scenario;

  // The production wait for a payment: before, a run waited all of it for charges that had not reached the provider.
  beforeEach(async () => {
    s = await Scenario.start({ SCHEDULER_ENABLED: 'false', DUNNING_STRATEGY: 'smart' }, { paymentPollMs: 15_000 });
  });

  afterEach(async () => {
    await s?.close();
  });

  const chargesOf = async (ids: string[]) =>
    (await Promise.all(ids.map((id) => s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${id}/charges?limit=200`)))).flatMap((p) => p.items).filter((c) => c.status !== 'skipped');
  const run = () => s.post<RunAnswer>('/api/v1/billing/run', {}, 200);
  const capturedInvoices = async () => new Set((await s.ledgerPayments()).filter((p) => p.status === 'captured').map((p) => p.invoiceID));

  it('counts charges due at local midnight as waiting for 08:00, not unknown, and captures them once the billing clock reaches it, in six zones after a 14-month jump', async () => {
    const planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Monthly', product: 'Monthly', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 1500 }] })).id;
    for (const zone of ZONES) {
      const customer = await s.createCustomer();
      await s.bindCard(customer.id, CARDS.success);
      const start = DateTime.fromISO((await s.get<{ now: string }>('/api/v1/test-clock')).now, { zone }).startOf('month').plus({ months: 1 });
      const first = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, startAt: start.toISO(), timezone: zone });

      await s.setClock(utc(start));
      expect({ zone, run: await run() }).toEqual({ zone, run: { ...NOTHING, due: 1, created: 1, waitingForAllowedHours: 1 } });
      const morning = utc(start.set({ hour: 8 }));
      expect({ zone, charges: await chargesOf([first.id]) }).toMatchObject({ zone, charges: [{ status: 'pending', nextAttemptAt: morning, waitingFor: 'allowed_hours', invoiceId: null, attempts: [] }] });

      // The clock jumps past 08:00 of that day: the waiting charge is due again, with three catch-up periods and a new
      // subscription, all at local midnight again.
      const jumped = start.plus({ months: JUMP_MONTHS });
      await s.setClock(utc(jumped));
      const second = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: zone });
      const ids = [first.id, second.id];
      const waiting = 1 + CATCH_UP + 1;
      expect({ zone, run: await run() }).toEqual({ zone, run: { ...NOTHING, due: waiting, created: CATCH_UP + 1, waitingForAllowedHours: waiting } });
      // Nothing else to do while the clock stands still, and nothing reached the provider.
      expect({ zone, run: await run() }).toEqual({ zone, run: NOTHING });
      const jumpedMorning = utc(jumped.set({ hour: 8 }));
      expect({ zone, charges: await chargesOf(ids) }).toEqual({
        zone,
        charges: Array.from({ length: waiting }, () => expect.objectContaining({ status: 'pending', nextAttemptAt: jumpedMorning, waitingFor: 'allowed_hours', invoiceId: null })),
      });

      await s.setClock(utc(jumped.set({ hour: 7, minute: 59 })));
      expect({ zone, run: await run() }).toEqual({ zone, run: NOTHING });
      await s.setClock(jumpedMorning);
      expect({ zone, run: await run() }).toEqual({ zone, run: { ...NOTHING, due: waiting, succeeded: waiting } });
      const captured = await capturedInvoices();
      const charges = await chargesOf(ids);
      expect({ zone, charges: charges.map((c) => ({ status: c.status, waitingFor: c.waitingFor, captured: c.invoiceId !== null && captured.has(c.invoiceId), at: c.attempts.map((a) => a.createdAt) })) }).toEqual({
        zone,
        charges: Array.from({ length: waiting }, () => ({ status: 'succeeded', waitingFor: null, captured: true, at: [jumpedMorning] })),
      });

      // The next zone's runs see only its own subscriptions.
      for (const id of ids) await s.post(`/api/v1/subscriptions/${id}/cancel`, { atPeriodEnd: false }, 200);
    }
  });

  it('counts a retry held by the 15-attempts-in-30-days cap as waiting for it, not as a decline', async () => {
    // A fixed ladder of 15 hourly retries: the 16th attempt would be the 16th in 30 days.
    const ladder = Array<string>(15).fill('1h');
    const planId = (
      await s.post<{ id: string }>('/api/v1/plans', { name: 'Hourly', product: 'Hourly', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 700 }], dunning: { retryDelays: ladder, finalAction: 'cancel' } })
    ).id;
    const customer = await s.createCustomer();
    await s.bindCard(customer.id, CARDS.success);
    await s.scriptOutcomes(customer.providerCustomerId, [...Array<string>(15).fill(INSUFFICIENT), 'success']);
    // In a month of 31 days, so the cap's release (30 days after the first attempt) comes before the next period.
    let month = DateTime.fromISO((await s.get<{ now: string }>('/api/v1/test-clock')).now, { zone: 'UTC' }).startOf('month').plus({ months: 1 });
    while (month.daysInMonth !== 31) month = month.plus({ months: 1 });
    const first = month.set({ hour: 10 });
    await s.setClock(utc(first));
    const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId, timezone: 'UTC' });
    for (let k = 0; k < 15; k++) {
      await s.setClock(utc(first.plus({ hours: k })));
      expect({ attempt: k + 1, run: await run() }).toMatchObject({ attempt: k + 1, run: { due: 1, declined: 1, unknown: 0 } });
    }

    await s.setClock(utc(first.plus({ hours: 15 })));
    expect(await run()).toEqual({ ...NOTHING, due: 1, waitingForAttemptCap: 1 });
    const releasedAt = first.plus({ days: 30, milliseconds: 1 });
    const [held] = await chargesOf([sub.id]);
    expect(held).toMatchObject({ status: 'retrying', nextAttemptAt: utc(releasedAt), waitingFor: 'attempt_cap' });
    expect(held.attempts).toHaveLength(15);

    await s.setClock(utc(releasedAt));
    expect(await run()).toEqual({ ...NOTHING, due: 1, succeeded: 1 });
    expect(await chargesOf([sub.id])).toMatchObject([{ status: 'succeeded', waitingFor: null }]);
  });
});
