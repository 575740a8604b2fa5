import 'reflect-metadata';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { createApp } from '../app.factory';
import { BillingRunService } from '../billing/billing-run.service';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { loadConfig, SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../config/load-config';
import { RuntimeSettings } from '../config/runtime-settings';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { runMigrations } from '../database/run-migrations';
import { ProcessingGateway } from '../gateway/processing.gateway';
import { insertPlan, insertSubscriptions, readyCustomers, ReadyCustomer, resetBilling } from './bench-fixtures';
import { benchPayouts } from './bench-payouts';
import { benchWebhooks } from './bench-webhooks';
import { benchRecovery, recoveryTable } from './bench-recovery';
import { benchRecoveryHoldout, holdoutTable } from './bench-recovery-holdout';
import { benchRevenue } from './bench-revenue';
import { BenchSandbox, FloorResult, runBareClient, startSandboxProcess } from './bench-sandbox';
import { InFlightMeter, meterHttpTo } from './calls-in-flight';
import { LoopLag, LoopLagSpent } from './loop-lag';
import { countStatements } from './statement-counter';
import { PairSummary, pairsRange, summarizePairs } from './paired-runs';
import { CpuSpent, ProcessCpu } from './process-cpu';
import { DatabaseWrites, WritesSpent } from './database-writes';

/**
 * `npm run bench`: renewals settled per second by one daemon process against the sandbox (in its own process, with
 * the provider model of issue 17: the stated latency on every call, a payment processed 10 ms after its creation
 * and captured 20 ms after it), each figure beside a bare client's (the same provider calls, same concurrency, no
 * database, no engine) measured in the same run, with the provider calls in flight on average on both sides, then the cost of not-due rows, the memory of a big pass, and payouts. Uses DATABASE_URL when
 * set (a database it may empty), else an in-memory embedded PostgreSQL.
 *
 * Run with --expose-gc (as `npm run bench` does), so each figure starts from a collected heap.
 * BENCH_DUE (default 1000) renewals per figure; BENCH_SCALE (default 1,000,000) subscriptions for the scale
 * figure; BENCH_BIG_PASS (default 100,000) due renewals among BENCH_BIG_AMONG (default 1,000,000) subscriptions
 * for the memory figure, its rate beside a 2,000-renewal pass; BENCH_QUICK=1 skips those two.
 * BENCH_FIGURES (e.g. `50x128,0x16x5`: latency ms x concurrency, and optionally x the ms from a payment's creation to
 * its capture, 20 when not given) runs only those throughput figures; BENCH_FIGURES_ONLY=1 runs nothing else (no
 * scale, memory or payout figure); BENCH_PAIRS
 * (default 3, 1 with BENCH_QUICK) alternating daemon and bare-client runs per figure (and small and large passes for
 * the scale figure), the pair of median ratio reported;
 * BENCH_MEMORY_ONLY=1 runs the memory figure alone; BENCH_WEBHOOKS=1 runs the webhook figure alone (payment reads
 * per charge with the provider's invoice webhooks flowing and without, BENCH_DUE charges settling in 2 s).
 */
const DUE = Number(process.env.BENCH_DUE ?? 1000);
const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const BIG_PASS = Number(process.env.BENCH_BIG_PASS ?? 100_000);
const BIG_AMONG = Number(process.env.BENCH_BIG_AMONG ?? 1_000_000);
const SMALL_PASS = 2_000;
const QUICK = process.env.BENCH_QUICK === '1';
const PAIRS = Math.max(1, Number(process.env.BENCH_PAIRS ?? (QUICK ? 1 : 3)));
const MEMORY_ONLY = process.env.BENCH_MEMORY_ONLY === '1';
const WEBHOOKS = process.env.BENCH_WEBHOOKS === '1';
const FIGURES_ONLY = process.env.BENCH_FIGURES_ONLY === '1';
/** The provider model of issue 17: a payment captured 20 ms after its creation. */
const CAPTURE_MS = 20;
const FIGURES: number[][] = process.env.BENCH_FIGURES
  ? process.env.BENCH_FIGURES.split(',').map((f) => f.split('x').map(Number))
  : [
      [0, 16],
      // Issue 45: with a capture after 5 ms, what is left at 0 ms is the daemon's own time between provider calls.
      [0, 16, 5],
      [50, 16],
      [0, 128],
      [50, 128],
    ];
/**
 * `npm run bench -- recovery`: BENCH_RECOVERY_SIZE subscriptions (default 2000), BENCH_RECOVERY_DAYS (90), BENCH_SEED (16);
 * BENCH_RECOVERY_MAX_DAYS gives the smart plan that `dunning.maxDays` (default: none, so 21).
 */
const RECOVERY_SIZE = Number(process.env.BENCH_RECOVERY_SIZE ?? 2000);
const RECOVERY_DAYS = Number(process.env.BENCH_RECOVERY_DAYS ?? 90);
const RECOVERY_SEED = Number(process.env.BENCH_SEED ?? 16);
const RECOVERY_MAX_DAYS = process.env.BENCH_RECOVERY_MAX_DAYS ? Number(process.env.BENCH_RECOVERY_MAX_DAYS) : undefined;
/**
 * `npm run bench -- revenue [explain]`: BENCH_REVENUE_SIZE subscriptions (default 100,000) with their history, the
 * revenue report timed for 1 and 12 months; BENCH_REVENUE_RESEED=0 reuses the history already in the database.
 */
const REVENUE_SIZE = Number(process.env.BENCH_REVENUE_SIZE ?? 100_000);
const REVENUE_RESEED = process.env.BENCH_REVENUE_RESEED !== '0';

type App = Awaited<ReturnType<typeof createApp>>;

interface PassResult {
  charges: number;
  seconds: number;
  cpuMs: number;
  statements: number;
  peakRssMb: number;
  inFlight: number;
  /** Provider calls made during the pass. */
  calls: number;
  paymentReads: number;
  /** From the pass's start to its first provider call, and from its last answer to the pass's end, in ms. */
  firstCallMs: number;
  tailMs: number;
  /** The average provider calls in flight over each tenth of the pass. */
  inFlightByTenth: number[];
  /** The average time a provider call was in flight, in ms, and how late this process's event loop ran meanwhile. */
  callMs: number;
  loopLag: LoopLagSpent;
  others: CpuSpent;
  /** What PostgreSQL wrote during the pass (undefined on the embedded database). */
  writes?: WritesSpent;
}

async function main(): Promise<void> {
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(undefined);
  const url = process.env.DATABASE_URL ?? (embedded?.url as string);
  await runMigrations(url);
  if (process.argv.includes('revenue')) {
    try {
      await benchRevenue(url, REVENUE_SIZE, REVENUE_RESEED, process.argv.includes('explain'));
    } finally {
      await embedded?.stop();
    }
    return;
  }
  const sandbox = await startSandboxProcess(SANDBOX_API_KEY);
  if (process.argv.includes('recovery-holdout')) {
    try {
      const holdout = Number(process.env.BENCH_RECOVERY_HOLDOUT ?? 20);
      const figures = await benchRecoveryHoldout(url, sandbox, RECOVERY_SIZE, RECOVERY_DAYS, RECOVERY_SEED, holdout);
      console.log(`recovery with a holdout: ${RECOVERY_SIZE} declined renewals, ${RECOVERY_DAYS} simulated days, seed ${RECOVERY_SEED}\n${holdoutTable(figures)}\n${recoveryTable([figures.all])}`);
    } finally {
      sandbox.close();
      await embedded?.stop();
    }
    return;
  }
  if (process.argv.includes('recovery')) {
    try {
      const figures = await benchRecovery(url, sandbox, RECOVERY_SIZE, RECOVERY_DAYS, RECOVERY_SEED, RECOVERY_MAX_DAYS);
      console.log(`recovery: ${RECOVERY_SIZE} declined renewals, ${RECOVERY_DAYS} simulated days, seed ${RECOVERY_SEED}\n${recoveryTable(figures)}`);
    } finally {
      sandbox.close();
      await embedded?.stop();
    }
    return;
  }
  const calls = meterHttpTo(sandbox.port);
  const db = new Client({ connectionString: url });
  await db.connect();
  const statements = countStatements((client) => client !== db);
  const otherCpu = new ProcessCpu(sandbox.pid);
  let app = await startApp(url, sandbox, 16);
  try {
    console.log(`database: ${embedded ? 'embedded PGlite (in memory)' : 'PostgreSQL from DATABASE_URL'}; node ${process.version}`);
    // Both change the figures: with autovacuum off only the daemon's own ANALYZE keeps plans right; each commit waits on fsync.
    const setting = async (name: string) => (await db.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
    console.log(`server: autovacuum ${await setting('autovacuum')}, synchronous_commit ${await setting('synchronous_commit')}, fsync ${await setting('fsync')}`);
    const customers = await readyCustomers(app.get(ProcessingGateway), Math.min(DUE, 200));
    const planId = await insertPlan(db);
    const pass = (count: number, notDue = 0) => runPass(app, db, customers, planId, count, notDue, statements, calls, otherCpu);
    const floor = async (concurrency: number): Promise<Floor> => {
      const before = otherCpu.mark();
      const bare = await runBareClient(sandbox, { apiKey: SANDBOX_API_KEY, shopId: SANDBOX_SHOP_ID, renewals: DUE, concurrency, customers: customers.map((c) => c.providerId) });
      return { ...bare, providerMs: otherCpu.since(before).providerMs };
    };

    await pass(DUE); // warm-up: JIT, pools, sandbox; not reported
    if (MEMORY_ONLY) return await memoryFigure(pass);
    if (WEBHOOKS) {
      const scheduling = () => startApp(url, sandbox, 16, true);
      return await benchWebhooks(sandbox, DUE, scheduling, (a, n) => runPass(a, db, customers, planId, n, 0, statements, calls, otherCpu));
    }
    for (const [latencyMs, concurrency, captureMs = CAPTURE_MS] of FIGURES) {
      if (concurrency !== app.get(AppConfig).providerMaxConcurrency) {
        await app.close();
        app = await startApp(url, sandbox, concurrency);
        await pass(DUE);
      }
      await sandbox.setLatency(latencyMs);
      await sandbox.setCaptureAfter(captureMs);
      const pairs: Pair[] = [];
      for (let i = 0; i < PAIRS; i++) pairs.push({ daemon: await pass(DUE), bare: await floor(concurrency) });
      const capture = captureMs === CAPTURE_MS ? '' : `, capture ${captureMs} ms`;
      report(`latency ${latencyMs} ms, concurrency ${concurrency}${capture}`, summarizePairs(pairs, ratioOf));
    }
    await sandbox.setLatency(0);
    await sandbox.setCaptureAfter(CAPTURE_MS);
    if (FIGURES_ONLY) return;
    await app.close();
    app = await startApp(url, sandbox, 16);
    await pass(DUE);

    if (!QUICK) {
      // In pairs too: one pass of each, minutes apart on a shared machine, once read 1.27 x where the next run read 1.01 x.
      const scalePairs: { small: PassResult; large: PassResult }[] = [];
      for (let i = 0; i < PAIRS; i++) scalePairs.push({ small: await pass(DUE, 0), large: await pass(DUE, SCALE - DUE) });
      const scale = summarizePairs(scalePairs, ({ small, large }) => large.seconds / small.seconds);
      const { small, large } = scale.median;
      console.log(
        `scale: ${DUE} due among ${DUE}: ${small.seconds.toFixed(2)} s; among ${SCALE.toLocaleString('en')}: ${large.seconds.toFixed(2)} s ` +
          `= ${(large.seconds / small.seconds).toFixed(2)} x${pairsRange(scale)} (target <= 1.3)`,
      );
      for (const [i, p] of scalePairs.entries()) console.log(`scale pair ${i + 1}: small ${p.small.seconds.toFixed(2)} s ${writesLine(p.small)}; large ${p.large.seconds.toFixed(2)} s ${writesLine(p.large)}`);
      await memoryFigure(pass);
    }
    await benchPayouts(app, 1000, statements);
  } finally {
    await db.end();
    await app.close();
    sandbox.close();
    await embedded?.stop();
  }
}

/** What PostgreSQL wrote during a pass, per charge. */
function writesLine(pass: PassResult): string {
  const w = pass.writes;
  if (!w) return '(writes unknown)';
  return `(WAL ${(w.walBytes / 1024 / pass.charges).toFixed(1)} KiB/charge, ${(w.fullPageImages / pass.charges).toFixed(2)} full pages/charge, checkpoint wrote ${w.checkpointBuffers} buffers, backends ${w.backendBuffers})`;
}

/** BIG_PASS due renewals among BIG_AMONG subscriptions: peak RSS, and the rate beside a SMALL_PASS pass's. */
async function memoryFigure(pass: (count: number, notDue?: number) => Promise<PassResult>): Promise<void> {
  const small = await pass(SMALL_PASS);
  const smallRate = small.charges / small.seconds;
  console.log(`memory: ${SMALL_PASS} due alone: ${smallRate.toFixed(0)} charges/s, peak RSS ${small.peakRssMb} MB | load ${loadavg()[0].toFixed(1)}`);
  const big = await pass(BIG_PASS, Math.max(0, BIG_AMONG - BIG_PASS));
  const bigRate = big.charges / big.seconds;
  console.log(
    `memory: ${BIG_PASS.toLocaleString('en')} due among ${Math.max(BIG_AMONG, BIG_PASS).toLocaleString('en')}: peak RSS ${big.peakRssMb} MB (target <= 300) ` +
      `at ${bigRate.toFixed(0)} charges/s = ${(bigRate / smallRate).toFixed(2)} x the ${SMALL_PASS}-renewal rate (target >= 0.9) | load ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`memory: writes: ${SMALL_PASS} alone ${writesLine(small)}; ${BIG_PASS.toLocaleString('en')} among ${writesLine(big)}`);
}

async function startApp(url: string, sandbox: BenchSandbox, concurrency: number, scheduler = false): Promise<App> {
  const config = loadConfig({
    ...process.env,
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    TEST_CLOCK: 'true',
    SCHEDULER_ENABLED: String(scheduler),
    BILLING_INTERVAL_MS: '86400000',
    LOG_LEVEL: 'warn',
    // Throughput, not dunning: first attempts are never held for the allowed local hours.
    DUNNING_STRATEGY: 'fixed',
    PROVIDER_MAX_CONCURRENCY: String(concurrency),
  });
  // The sandbox settles at once: poll it accordingly, so the figures measure the daemon, not its waits.
  const app = await createApp({ config, runtime: new RuntimeSettings(url, sandbox.url), payoutTuning: { destinationPollMs: 20, pollDelayMs: 5, maxPollDelayMs: 50 } });
  await app.init();
  return app;
}

/** One billing pass over `count` due subscriptions (and `notDue` that are not due), measured. */
async function runPass(
  app: App,
  db: Client,
  customers: ReadyCustomer[],
  planId: string,
  count: number,
  notDue: number,
  statements: { count: number },
  calls: InFlightMeter,
  otherCpu: ProcessCpu,
): Promise<PassResult> {
  await resetBilling(db, customers);
  const clock = app.get(Clock);
  await clock.refresh();
  const now = clock.now();
  await insertSubscriptions(db, customers, planId, count, now);
  await insertSubscriptions(db, customers, planId, notDue, new Date(now.getTime() + 20 * 86_400_000));
  if (notDue > 0) await db.query('ANALYZE subscriptions');
  const writes = new DatabaseWrites(db);
  const writesBefore = await writes.mark();
  // What earlier figures left behind (a million rows inserted, apps closed) is not this pass's memory.
  (globalThis as { gc?: () => void }).gc?.();
  // rss() alone: process.memoryUsage() also walks the heap's spaces, which cost this process (and so the daemon's CPU
  // per charge, and at 0 ms its rate) several per cent of its CPU when sampled this often.
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const statementsBefore = statements.count;
  const othersBefore = otherCpu.mark();
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const lag = new LoopLag();
  calls.start();
  lag.start();
  await app.get(BillingRunService).runPass(app.get(AppConfig).providerMaxConcurrency);
  // Settling by webhook goes on after the pass: the figure ends when every charge has succeeded (at most a minute).
  const succeeded = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM charges WHERE status = 'succeeded'`)).rows[0].n;
  for (let waited = 0; (await succeeded()) < count && waited < 60_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const others = otherCpu.since(othersBefore);
  const written = await writes.since(writesBefore);
  const metered = calls.read();
  const loopLag = lag.read();
  clearInterval(sampler);
  const settled = await succeeded();
  if (settled !== count) throw new Error(`expected ${count} succeeded charges, found ${settled}`);
  return {
    charges: count,
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    statements: statements.count - statementsBefore,
    peakRssMb: Math.round(peak / 1048576),
    inFlight: metered.average,
    calls: metered.calls,
    paymentReads: metered.paymentReads,
    firstCallMs: metered.firstCallMs,
    tailMs: metered.tailMs,
    inFlightByTenth: metered.byTenth,
    callMs: metered.callMs,
    loopLag,
    others,
    writes: written,
  };
}

/** The bare client's figures and the simulator's CPU while it ran. */
type Floor = FloorResult & { providerMs?: number };

/** ms per charge, or `?` where the process could not be read. */
const perCharge = (ms: number | undefined, charges: number) => (ms === undefined ? '?' : (ms / charges).toFixed(2));

/** A daemon pass and the bare client's run right after it, at one figure's latency and concurrency. */
interface Pair {
  daemon: PassResult;
  bare: Floor;
}

const lagOf = (lag: LoopLagSpent) => `${lag.meanMs.toFixed(1)} ms on average, ${lag.p99Ms.toFixed(0)} at p99`;

const tenths = (averages: number[]) => averages.map((average) => average.toFixed(0)).join(' ');

const ratioOf = ({ daemon, bare }: Pair) => daemon.charges / daemon.seconds / bare.perSecond;

function report(label: string, pairs: PairSummary<Pair>): void {
  const { daemon, bare } = pairs.median;
  const perSecond = daemon.charges / daemon.seconds;
  // Where the machine's CPU went per charge: the rate on two shared cores is bounded by the sum.
  const machine =
    `machine CPU/charge: daemon ${perCharge(daemon.cpuMs, daemon.charges)} + PostgreSQL ${perCharge(daemon.others.postgresMs, daemon.charges)} + ` +
    `provider ${perCharge(daemon.others.providerMs, daemon.charges)} ms (bare: client ${bare.cpuMsPerRenewal.toFixed(2)} + provider ${perCharge(bare.providerMs, DUE)} ms)`;
  console.log(
    `${label.padEnd(30)} daemon ${perSecond.toFixed(0).padStart(5)} charges/s | bare ${bare.perSecond.toFixed(0).padStart(5)}/s | ratio ${(perSecond / bare.perSecond).toFixed(2)}${pairsRange(pairs)} | ` +
      `in flight ${daemon.inFlight.toFixed(1)} vs ${bare.inFlight.toFixed(1)} | calls/charge ${(daemon.calls / daemon.charges).toFixed(2)} (bare ${bare.callsPerRenewal.toFixed(2)}) | reads/charge ${(daemon.paymentReads / daemon.charges).toFixed(2)} (bare ${bare.readsPerRenewal.toFixed(2)}) | ` +
      `${(daemon.statements / daemon.charges).toFixed(1)} statements/charge | ` +
      `peak RSS ${daemon.peakRssMb} MB | load ${loadavg()[0].toFixed(1)}\n${''.padEnd(30)} ${machine}\n` +
      `${''.padEnd(30)} idle ends: first call after ${daemon.firstCallMs.toFixed(0)} ms (bare ${bare.firstCallMs.toFixed(0)}), last answer ${daemon.tailMs.toFixed(0)} ms before the end (bare ${bare.tailMs.toFixed(0)}) of ${(daemon.seconds * 1000).toFixed(0)} ms (bare ${((DUE / bare.perSecond) * 1000).toFixed(0)})\n` +
      `${''.padEnd(30)} in flight by tenth of the run: daemon ${tenths(daemon.inFlightByTenth)} | bare ${tenths(bare.inFlightByTenth)}\n` +
      `${''.padEnd(30)} time per call: daemon ${daemon.callMs.toFixed(1)} ms, its event loop late by ${lagOf(daemon.loopLag)} | bare ${bare.callMs.toFixed(1)} ms, ${lagOf(bare.loopLag)}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
