import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../../src/app.factory';
import { BillingRunService, BillingRunSummary } from '../../../src/billing/billing-run.service';
import type { BillingTuning } from '../../../src/billing/billing-tuning';
import { RuntimeSettings } from '../../../src/config/runtime-settings';
import { CustomerSyncService } from '../../../src/customers/customer-sync.service';
import type { RefundTuning } from '../../../src/refunds/refund-tuning';
import type { WorkTuning } from '../../../src/work/work-tuning';
import { FAST_WORK_TUNING } from '../../support/fast-work-tuning';
import { testConfig, TEST_ADMIN_TOKEN } from '../../support/test-config';
import type { SandboxClient } from '../../support/sandbox-client';
import { sleep, waitFor } from '../../support/wait';
import { ChargeView, checkExactlyOnce, ExactlyOnceExpectation, ExactlyOnceReport, SubscriptionEventView } from './exactly-once';

/** One daemon instance (an "engine") on the shared test database and the given sandbox. */
export interface Engine {
  app: NestExpressApplication;
  /** supertest against the admin API, admin token set. */
  api: () => TestAgent;
  runPass(concurrency?: number): Promise<BillingRunSummary>;
  close(): Promise<void>;
}

/** Short leases and backoffs so faults heal within a test, not within minutes. */
export const FAST_TUNING: Partial<BillingTuning> = { paymentPollMs: 2000 };

export async function startEngine(
  databaseUrl: string,
  sandboxUrl: string,
  billingTuning: Partial<BillingTuning> = FAST_TUNING,
  env: Record<string, string> = {},
  workTuning: Partial<WorkTuning> = FAST_WORK_TUNING,
  refundTuning: Partial<RefundTuning> = {},
): Promise<Engine> {
  const app = await createApp({
    config: testConfig({ TEST_CLOCK: 'true', ...env }),
    runtime: new RuntimeSettings(databaseUrl, sandboxUrl),
    billingTuning,
    workTuning,
    refundTuning,
    poolSize: 6,
  });
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    api: () => request.agent(server).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`),
    runPass: (concurrency = 8) => app.get(BillingRunService).runPass(concurrency),
    close: () => app.close(),
  };
}

/** Moves the shared test clock (every engine and child process reads it) to `now`. */
export async function setClock(engine: Engine, now: string): Promise<void> {
  const res = await engine.api().post('/api/v1/test-clock').send({ now });
  if (res.status !== 200) throw new Error(`POST /api/v1/test-clock answered ${res.status}: ${JSON.stringify(res.body)}`);
}

export interface TestPlan {
  id: string;
  amount: number;
  currency: string;
}

/** 2 × 1000 + 500 = 2500 RUB minor units a month. */
export async function createPlan(engine: Engine): Promise<TestPlan> {
  const res = await engine
    .api()
    .post('/api/v1/plans')
    .send({
      name: 'Team',
      product: 'Team plan, monthly',
      currency: 'RUB',
      interval: 'month',
      lines: [
        { product: 'Seat', price: 1000, quantity: 2, taxRate: '22%' },
        { product: 'Support', price: 500 },
      ],
    });
  if (res.status !== 201) throw new Error(`POST /api/v1/plans answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.id, amount: res.body.amount, currency: res.body.currency };
}

/**
 * Customers with a bound card, ready to be charged: created through the admin API, a card tokenized at the sandbox
 * the way a merchant's form does, the binding started through the admin API, then followed until the customer is ready.
 */
export async function createReadyCustomers(engine: Engine, sandbox: SandboxClient, count: number, timeoutMs = 120_000, cardNumber?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await engine.api().post('/api/v1/customers').send({ email: `payer${i}@example.com` });
    if (created.status !== 201) throw new Error(`POST /api/v1/customers answered ${created.status}: ${JSON.stringify(created.body)}`);
    const card = await sandbox.cardForBinding(cardNumber);
    const binding = await engine.api().post(`/api/v1/customers/${created.body.id}/bindings`).send(card);
    if (binding.status !== 202) throw new Error(`POST /api/v1/customers/:id/bindings answered ${binding.status}: ${JSON.stringify(binding.body)}`);
    ids.push(created.body.id as string);
  }
  const sync = engine.app.get(CustomerSyncService);
  const notReady = new Set(ids);
  await waitFor(
    async () => {
      await sync.syncDue(100);
      for (const id of [...notReady]) {
        const res = await engine.api().get(`/api/v1/customers/${id}`);
        if (res.status === 200 && res.body.status === 'ready') notReady.delete(id);
      }
      return notReady.size;
    },
    (left) => left === 0,
    { timeoutMs, everyMs: 50, what: `all ${count} customers ready` },
  );
  return ids;
}

export async function subscribeAll(engine: Engine, customerIds: string[], planId: string, startAt: string): Promise<string[]> {
  const ids: string[] = [];
  for (const customerId of customerIds) {
    const res = await engine.api().post('/api/v1/subscriptions').send({ customerId, planId, startAt });
    if (res.status !== 201) throw new Error(`POST /api/v1/subscriptions answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.status !== 'active') throw new Error(`a subscription of a ready customer started ${res.body.status}, expected active`);
    ids.push(res.body.id as string);
  }
  return ids;
}

/** Every charge the daemon knows, through the admin API (all pages). */
export async function listCharges(engine: Engine): Promise<ChargeView[]> {
  const all: ChargeView[] = [];
  let cursor: string | null = null;
  do {
    const res = await engine
      .api()
      .get('/api/v1/charges')
      .query({ limit: 200, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`GET /api/v1/charges answered ${res.status}: ${JSON.stringify(res.body)}`);
    all.push(...(res.body.items as ChargeView[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return all;
}

/** A subscription's whole audit trail, through the admin API (all pages). */
export async function listEvents(engine: Engine, subscriptionId: string): Promise<SubscriptionEventView[]> {
  const all: SubscriptionEventView[] = [];
  let cursor: string | null = null;
  do {
    const res = await engine
      .api()
      .get(`/api/v1/subscriptions/${subscriptionId}/events`)
      .query({ limit: 200, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`GET /api/v1/subscriptions/:id/events answered ${res.status}: ${JSON.stringify(res.body)}`);
    all.push(...(res.body.items as SubscriptionEventView[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return all;
}

/**
 * Every engine runs passes back to back, each on its own (as each replica's scheduler would), until every expected
 * charge exists and has succeeded. Gives up at the deadline, or once nothing has succeeded for `stallMs` (technical
 * retries wait at most maxTechnicalBackoffMs, so a charge without progress for that long is stuck; the invariant check
 * then says which and why). Returns how many charges each engine claimed.
 */
export async function drain(
  engines: Engine[],
  expectedCharges: number,
  options: { timeoutMs?: number; stallMs?: number } = {},
): Promise<{ settled: boolean; claimed: number[] }> {
  const claimed = engines.map(() => 0);
  let stop = false;
  const loops = engines.map(async (engine, i) => {
    while (!stop) {
      const summary = await engine.runPass(4);
      claimed[i] += summary.due;
      if (summary.due === 0) await sleep(20);
    }
  });
  const allSucceeded = ({ total, succeeded }: { total: number; succeeded: number }) => total >= expectedCharges && succeeded === total;
  let settled = false;
  try {
    await sleep(100);
    const final = await waitFor(
      // Two counts, not every charge through the admin API: that listing, read ten times a second, was most of the
      // CPU a year of renewals spent waiting here. The callers' own assertions read the charges through the API.
      async () => {
        const [counts]: { total: number; succeeded: number }[] = await engines[0].app
          .get(DataSource)
          .query(`SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded FROM charges`);
        return counts;
      },
      allSucceeded,
      { timeoutMs: options.timeoutMs ?? 120_000, everyMs: 100, stallMs: options.stallMs ?? 30_000, progressOf: (s) => s.succeeded, failOnTimeout: false },
    );
    settled = allSucceeded(final);
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  return { settled, claimed };
}

/** Asserts the exactly-once invariant against the sandbox ledger and the daemon's charges; returns the report. */
export async function assertExactlyOnce(engine: Engine, sandbox: SandboxClient, expectation: ExactlyOnceExpectation): Promise<ExactlyOnceReport> {
  const [ledger, charges] = await Promise.all([sandbox.control.ledger(), listCharges(engine)]);
  const events: SubscriptionEventView[] = [];
  for (const s of expectation.subscriptions) events.push(...(await listEvents(engine, s.id)));
  const report = checkExactlyOnce(ledger, charges, expectation, events);
  if (report.violations.length > 0) {
    // Say what the engine's own rows look like for every charge that did not end well, to find the cause.
    const rows: Record<string, unknown>[] = await engine.app.get(DataSource).query(
      `SELECT c.id, c.subscription_id, c.period_start, c.status, c.step, c.provider_invoice_id, c.last_error_code,
              c.technical_failures, c.fence, c.lease_owner,
              coalesce(json_agg(json_build_object('n', a.number, 'status', a.status, 'paymentId', a.provider_payment_id, 'error', a.error_code)
                                ORDER BY a.number) FILTER (WHERE a.id IS NOT NULL), '[]') AS attempts
         FROM charges c LEFT JOIN charge_attempts a ON a.charge_id = c.id
        WHERE c.status <> 'succeeded' OR c.provider_invoice_id IS NULL
        GROUP BY c.id`,
    );
    expect([...report.violations, ...rows.map((r) => `diagnostic: ${JSON.stringify(r)}`)]).toEqual([]);
  }
  expect(report.violations).toEqual([]);
  // Belt and braces: the counts the violations are derived from.
  expect(report.charged).toBe(report.expectedPeriods);
  expect(charges.filter((c) => c.status === 'succeeded')).toHaveLength(report.expectedPeriods);
  return report;
}
