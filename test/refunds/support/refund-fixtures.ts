import { DataSource } from 'typeorm';
import type { RefundResponse } from '../../../src/refunds/refund-response';
import { RefundProcessorService, RefundRunSummary } from '../../../src/refunds/refund-processor.service';
import type { RefundTuning } from '../../../src/refunds/refund-tuning';
import type { WorkTuning } from '../../../src/work/work-tuning';
import { createPlan, createReadyCustomers, Engine, FAST_TUNING, listCharges, setClock, startEngine, subscribeAll, TestPlan } from '../../billing/support/billing-fixtures';
import type { ChargeView } from '../../billing/support/exactly-once';
import { T0 } from '../../billing/support/exactly-once';
import { FAST_WORK_TUNING } from '../../support/fast-work-tuning';
import type { SandboxClient } from '../../support/sandbox-client';
import { sleep, waitFor } from '../../support/wait';
import { checkRefunds, RefundReport } from './refund-ledger';

/** Refund engine timings for tests: polls in milliseconds, a turn waited for briefly, the event safety net short. */
export const FAST_REFUND_TUNING: Partial<RefundTuning> = { pollDelayMs: 10, maxPollDelayMs: 100, inlinePollMs: 2_000, turnWaitMs: 50, eventSafetyNetMs: 500 };

/** A daemon on the test database and the sandbox (test clock on, no scheduler), with short refund timings. */
export function startRefundEngine(
  databaseUrl: string,
  sandboxUrl: string,
  options: { work?: Partial<WorkTuning>; refunds?: Partial<RefundTuning>; env?: Record<string, string> } = {},
): Promise<Engine> {
  return startEngine(databaseUrl, sandboxUrl, FAST_TUNING, options.env ?? {}, { ...FAST_WORK_TUNING, ...options.work }, { ...FAST_REFUND_TUNING, ...options.refunds });
}

export interface PaidCharges {
  plan: TestPlan;
  customerIds: string[];
  subscriptionIds: string[];
  charges: ChargeView[];
}

/**
 * `count` subscriptions of the 2500 RUB plan (2 × 1000 at 22 % VAT, 500 without), each first period charged at T0
 * (paid, unless `cardNumber` declines), the charges settled: succeeded, or declined and waiting.
 */
export async function paidCharges(engine: Engine, sandbox: SandboxClient, count: number, cardNumber?: string): Promise<PaidCharges> {
  await setClock(engine, T0);
  const plan = await createPlan(engine);
  const customerIds = await createReadyCustomers(engine, sandbox, count, 120_000, cardNumber);
  const subscriptionIds = await subscribeAll(engine, customerIds, plan.id, T0);
  const charges = await waitFor(
    async () => {
      await engine.runPass(4);
      return (await listCharges(engine)).filter((c) => subscriptionIds.includes(c.subscriptionId));
    },
    (found) => found.length === count && found.every((c) => c.status !== 'pending' && c.status !== 'processing'),
    { timeoutMs: 120_000, everyMs: 20, what: `the ${count} first charges settled` },
  );
  return { plan, customerIds, subscriptionIds, charges };
}

/** POST /api/v1/charges/:id/refunds, answered as it came. */
export function askRefund(engine: Engine, chargeId: string, body: Record<string, unknown> = {}, idempotencyKey?: string) {
  const req = engine.api().post(`/api/v1/charges/${chargeId}/refunds`);
  if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
  return req.send(body);
}

/** Every refund the daemon knows, through the admin API (all pages). */
export async function listRefunds(engine: Engine, query: Record<string, string> = {}): Promise<RefundResponse[]> {
  const all: RefundResponse[] = [];
  let cursor: string | null = null;
  do {
    const res = await engine
      .api()
      .get('/api/v1/refunds')
      .query({ limit: 200, ...query, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`GET /api/v1/refunds answered ${res.status}: ${JSON.stringify(res.body)}`);
    all.push(...(res.body.items as RefundResponse[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return all;
}

/**
 * Every engine works refunds back to back (as each replica's loop would) until no refund is pending, the deadline
 * passes, or nothing has ended for `stallMs`. Answers whether all ended and the engines' summed runs.
 */
export async function settleRefunds(
  engines: Engine[],
  options: { timeoutMs?: number; stallMs?: number } = {},
): Promise<{ settled: boolean; totals: RefundRunSummary; steps: number[] }> {
  const totals: RefundRunSummary = { steps: 0, succeeded: 0, failed: 0 };
  const steps = engines.map(() => 0);
  let stop = false;
  const loops = engines.map(async (engine, i) => {
    const processor = engine.app.get(RefundProcessorService);
    while (!stop) {
      const summary = await processor.runOnce().catch(() => ({ steps: 0, succeeded: 0, failed: 0 }));
      steps[i] += summary.steps;
      totals.steps += summary.steps;
      totals.succeeded += summary.succeeded;
      totals.failed += summary.failed;
      if (summary.steps === 0) await sleep(10);
    }
  });
  const open = async () => (await listRefunds(engines[0])).filter((r) => r.status === 'pending').length;
  let settled = false;
  try {
    const left = await waitFor(open, (n) => n === 0, {
      timeoutMs: options.timeoutMs ?? 120_000,
      everyMs: 50,
      stallMs: options.stallMs ?? 60_000,
      progressOf: (n) => -n,
      failOnTimeout: false,
    });
    settled = left === 0;
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  return { settled, totals, steps };
}

/** The externalID each refund sends (the daemon keeps it; the API does not show it), for the ledger check. */
export async function externalIdsOf(engine: Engine): Promise<Map<string, string>> {
  const rows: { id: string; external_id: string }[] = await engine.app.get(DataSource).query('SELECT id, external_id FROM refunds');
  return new Map(rows.map((r) => [r.id, r.external_id]));
}

/** Asserts the exactly-once accounting of card refunds against the sandbox's ledger, prints the figures and answers them. */
export async function assertRefundsExactlyOnce(engine: Engine, sandbox: SandboxClient, label: string): Promise<RefundReport> {
  const [ledger, refunds, externalIds] = await Promise.all([sandbox.control.ledger(), listRefunds(engine), externalIdsOf(engine)]);
  const report = checkRefunds(ledger, refunds, (r) => externalIds.get(r.id) as string);
  console.log(`${label}: refunds attempted ${report.attempted}, made ${report.made}, double ${report.double}, lost ${report.lost}`);
  expect(report.violations).toEqual([]);
  expect({ double: report.double, lost: report.lost }).toEqual({ double: 0, lost: 0 });
  return report;
}
