import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createApp } from '../app.factory';
import { BillingRunService } from '../billing/billing-run.service';
import { Clock } from '../common/clock/clock';
import { loadConfig, SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../config/load-config';
import { RuntimeSettings } from '../config/runtime-settings';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { runMigrations } from '../database/run-migrations';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { PayoutDestinationsService } from '../payouts/payout-destinations.service';
import { PayoutProcessorService } from '../payouts/payout-processor.service';
import { PayoutSetupService } from '../payouts/payout-setup.service';
import { PayoutsService } from '../payouts/payouts.service';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * Charges settled per second by one process against the sandbox, with and without ten times as many
 * subscriptions that are not due, then payouts settled per second. Uses DATABASE_URL when set (a
 * database it may fill), else an in-memory embedded PostgreSQL. BENCH_DUE sets how many subscriptions
 * are due (default 1000), BENCH_PAYOUTS how many payouts one batch holds (default 1000).
 */
const DUE = Number(process.env.BENCH_DUE ?? 1000);
const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 1000);
const NOT_DUE_FACTOR = 10;

async function main(): Promise<void> {
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(undefined);
  const url = process.env.DATABASE_URL ?? (embedded?.url as string);
  await runMigrations(url);
  // The provider runs in its own process, as a real one would: the daemon's CPU is measured alone.
  const sandbox = await startSandboxProcess();
  const config = loadConfig({ ...process.env, ADMIN_TOKEN: 'bench-admin-token-0123456789', TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'false', LOG_LEVEL: 'warn' });
  // The sandbox settles in a millisecond: poll it accordingly, so the figure measures the daemon, not its waits.
  const app = await createApp({
    config,
    runtime: new RuntimeSettings(url, sandbox.url),
    payoutTuning: { destinationPollMs: 20, pollDelayMs: 5, maxPollDelayMs: 50 },
  });
  await app.init();
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    console.log(`database: ${embedded ? 'embedded PGlite (in memory)' : 'PostgreSQL from DATABASE_URL'}; provider concurrency ${config.providerMaxConcurrency}`);
    const customers = await readyCustomers(app.get(ProcessingGateway), Math.min(DUE, 200));
    const planId = await insertPlan(db);
    // The first round warms the JIT, the pools and the sandbox; it is not reported.
    for (const [round, notDue] of [[0, 0], [1, 0], [2, DUE * NOT_DUE_FACTOR]]) {
      await db.query(`TRUNCATE subscriptions, subscription_events, charges, charge_attempts, customers, payouts, payout_batches, payout_destinations, payout_setup`);
      await insertCustomers(db, customers);
      const clock = app.get(Clock);
      await clock.refresh();
      const now = clock.now();
      await insertSubscriptions(db, customers, planId, round === 0 ? Math.ceil(DUE / 5) : DUE, now, true);
      await insertSubscriptions(db, customers, planId, notDue, new Date(now.getTime() + 20 * 86_400_000), false);
      const before = process.memoryUsage().rss;
      const started = process.hrtime.bigint();
      const summary = await app.get(BillingRunService).runPass(config.providerMaxConcurrency);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM charges WHERE status = 'succeeded'`);
      if (round === 0) continue;
      console.log(
        `${String(DUE).padStart(6)} due + ${String(notDue).padStart(6)} not due: ${rows[0].n} charges settled in ${seconds.toFixed(2)} s = ` +
          `${(rows[0].n / seconds).toFixed(1)} charges/s (pass summary ${JSON.stringify(summary)}; rss ${mb(process.memoryUsage().rss)} MB, +${mb(process.memoryUsage().rss - before)} MB)`,
      );
    }
    await benchPayouts(app);
  } finally {
    await db.end();
    await app.close();
    sandbox.close();
    await embedded?.stop();
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

/** One batch of payouts to an authorized destination, worked until every payout is final. */
async function benchPayouts(app: Awaited<ReturnType<typeof createApp>>): Promise<void> {
  await app.get(PayoutSetupService).setUp({ identityName: 'Bench', provider: 'test', class: 'person', walletName: 'Bench', currency: 'RUB' });
  const destinations = app.get(PayoutDestinationsService);
  const destination = await destinations.create({ name: 'Bench card', currency: 'RUB', card: { cardNumber: '4242424242424242', expDate: '12/30', cardHolder: 'BENCH' } });
  for (let i = 0; (await destinations.get(destination.id)).status !== 'Authorized'; i++) {
    if (i > 500) throw new Error('the bench destination was not authorized');
    await destinations.followDue();
    await new Promise((r) => setTimeout(r, 10));
  }
  const items = Array.from({ length: PAYOUTS }, () => ({ destinationId: destination.id, amount: 5000, currency: 'RUB' }));
  const accepted = process.hrtime.bigint();
  const batch = await app.get(PayoutsService).createBatch(items);
  const started = process.hrtime.bigint();
  const processor = app.get(PayoutProcessorService);
  let settled = 0;
  for (let idle = 0; settled < PAYOUTS && idle < 1000; ) {
    const run = await processor.runOnce();
    settled += run.succeeded + run.failed;
    idle = run.steps === 0 ? idle + 1 : 0;
    if (run.steps === 0) await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const counts = (await app.get(PayoutsService).getBatch(batch.batch.id)).counts;
  console.log(
    `${String(PAYOUTS).padStart(6)} payouts: batch accepted in ${(Number(started - accepted) / 1e9).toFixed(2)} s, settled in ${seconds.toFixed(2)} s = ` +
      `${(settled / seconds).toFixed(1)} payouts/s (${JSON.stringify(counts)}; rss ${mb(process.memoryUsage().rss)} MB)`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startSandboxProcess(): Promise<{ url: string; close(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'sandbox', 'sandbox.main.js')], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_API_KEY },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${url}/sandbox/config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ delays: { bindingMs: 1, paymentMs: 1, authorizeDestinationMs: 1, withdrawalMs: 1 } }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200) throw new Error('the sandbox process did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, close: () => child.kill('SIGTERM') };
}

interface ReadyCustomer {
  id: string;
  providerId: string;
}

/** Customers made ready at the sandbox through the real binding flow. */
async function readyCustomers(gateway: ProcessingGateway, count: number): Promise<ReadyCustomer[]> {
  const out: ReadyCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const { customer } = await gateway.createCustomer({ shopID: SANDBOX_SHOP_ID, contactInfo: { email: `bench${i}@example.com` }, metadata: {} });
    const resource = await gateway.createPaymentResource({
      paymentTool: { paymentToolType: 'CardData', cardNumber: '4242424242424242', expDate: '12/30', cvv: '123', cardHolder: 'BENCH' },
      clientInfo: { fingerprint: 'bench' },
    });
    await gateway.createBinding(customer.id, { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } });
    out.push({ id: randomUUID(), providerId: customer.id });
  }
  for (const c of out) {
    for (let tries = 0; (await gateway.getCustomer(c.providerId)).status !== 'ready'; tries++) {
      if (tries > 500) throw new Error('sandbox customer did not become ready');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  return out;
}

async function insertPlan(db: Client): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id)
     VALUES ('Bench', 'Bench', 'RUB', 'month', 1, 0, $1, 150000, $2) RETURNING id`,
    [JSON.stringify([{ product: 'Seat', price: 50000, quantity: 2, taxRate: '20%' }, { product: 'Support', price: 50000, quantity: 1 }]), SANDBOX_SHOP_ID],
  );
  return rows[0].id;
}

async function insertCustomers(db: Client, customers: ReadyCustomer[]): Promise<void> {
  for (const c of customers) {
    await db.query(`INSERT INTO customers (id, provider_customer_id, shop_id, status, ready_at) VALUES ($1, $2, $3, 'ready', now())`, [c.id, c.providerId, SANDBOX_SHOP_ID]);
  }
}

async function insertSubscriptions(db: Client, customers: ReadyCustomer[], planId: string, count: number, anchor: Date, _due: boolean): Promise<void> {
  const chunk = 1000;
  for (let offset = 0; offset < count; offset += chunk) {
    const n = Math.min(chunk, count - offset);
    await db.query(
      `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at)
       SELECT ($1::uuid[])[1 + (g % $2)], $3, 'active', 'UTC', $4, $4, $4 FROM generate_series(1, $5) g`,
      [customers.map((c) => c.id), customers.length, planId, anchor, n],
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
