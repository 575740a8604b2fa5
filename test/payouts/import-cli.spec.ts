import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase } from '../support/test-database';
import { nodeArgsFor } from '../support/transpiled-entry';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { authorizedDestination, cardDataIn, ledgerWithdrawals, setUpPayouts } from './support/payout-fixtures';
import { PayoutTestApp, startPayoutTestApp } from './support/payout-test-app';

const ROOT = join(__dirname, '..', '..');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgsFor('src/payouts/cli/import-payouts.main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ADMIN_TOKEN: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('payouts:import, the CSV command line, against a daemon whose scheduler does the work', () => {
  let t: PayoutTestApp;
  let url: string;
  let dir: string;
  let rows: string[];

  beforeAll(async () => {
    await resetDatabase();
    // The scheduler is on: the import's batches are worked without anyone calling the processor.
    t = await startPayoutTestApp({ env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '500' } });
    await t.app.listen(0, '127.0.0.1');
    url = await t.app.getUrl();
    await setUpPayouts(t);
    const good = await Promise.all([authorizedDestination(t, CARDS.success), authorizedDestination(t, CARDS.secondSuccess)]);
    const poor = await authorizedDestination(t, CARDS.insufficientFunds);
    rows = ['destinationId,amount,currency,metadata'];
    for (let i = 0; i < 36; i++) rows.push(`${good[i % 2].id},${100 + i},RUB,"{""row"":${i}}"`);
    for (let i = 0; i < 4; i++) rows.push(`${poor.id},${500 + i},RUB,`);
    dir = mkdtempSync(join(tmpdir(), 'payouts-import-'));
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('imports the file, shows progress, and prints a summary with failures by code (exit 2: some failed)', async () => {
    const file = join(dir, 'payouts.csv');
    writeFileSync(file, rows.join('\n'));
    const run = await runCli([file, '--url', url, '--poll-ms', '100'], { ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/payouts\.csv: 40 payout\(s\) accepted in 1 batch\(es\): [0-9a-f-]{36}/);
    // The progress bar goes to stderr (a plain line per update when piped), the summary to stdout.
    expect(run.stderr).toMatch(/Payouts \|.*\| 0\/40 settled/);
    expect(run.stderr).toMatch(/Payouts \|=+\| 100% \| 40\/40 settled \| succeeded 36 \| failed 4 \| pending 0/);
    expect(run.stdout).toContain('Summary: 36 succeeded, 4 failed, 40 total');
    expect(run.stdout).toContain('authorization_failed:insufficient_funds: 4');
    expect(await ledgerWithdrawals(t)).toHaveLength(40);
  });

  it('running the same file again follows the same batch and pays nobody twice', async () => {
    const file = join(dir, 'payouts.csv');
    const run = await runCli([file, '--url', url, '--token', TEST_ADMIN_TOKEN, '--poll-ms', '100']);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('Summary: 36 succeeded, 4 failed, 40 total');
    const batches = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payout_batches');
    expect(batches[0].n).toBe(1);
    expect(await ledgerWithdrawals(t)).toHaveLength(40);
  });

  it('refuses a file with bad rows, naming each line, and sends nothing (exit 1)', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, [rows[0], rows[1], `${rows[1].split(',')[0]},12.5,RUB,`, `not-a-uuid,100,usd,`].join('\n'));
    const run = await runCli([file, '--url', url, '--token', TEST_ADMIN_TOKEN]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('2 problem(s); nothing was sent.');
    expect(run.stderr).toContain('line 3: amount must be a whole number of minor units, at least 1');
    expect(run.stderr).toContain('line 4: destinationId must be a UUID; currency must be an ISO 4217 code such as RUB');
    const batches = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM payout_batches');
    expect(batches[0].n).toBe(1);
  });

  it('refuses to run without a token or with a wrong one', async () => {
    const file = join(dir, 'payouts.csv');
    expect((await runCli([file, '--url', url])).stderr).toContain('no admin token');
    const wrong = await runCli([file, '--url', url, '--token', 'wrong-token-0123456789']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('answered 401');
  });

  it('with --no-wait returns once the batch is accepted; the daemon settles it on its own', async () => {
    const file = join(dir, 'more.csv');
    writeFileSync(file, [rows[0], rows[1], rows[2]].join('\n'));
    const run = await runCli([file, '--url', url, '--token', TEST_ADMIN_TOKEN, '--no-wait']);
    expect(run.code).toBe(0);
    const batchId = /accepted in 1 batch\(es\): ([0-9a-f-]{36})/.exec(run.stdout)?.[1] as string;
    expect(batchId).toBeDefined();
    await waitFor(
      async () => (await t.api().get(`/api/v1/payouts/batches/${batchId}`)).body.counts.succeeded as number,
      (succeeded) => succeeded === 2,
      { timeoutMs: 60_000, everyMs: 50, what: 'the scheduler settling the batch' },
    );
  });

  it('kept no card data in the log', () => {
    expect(cardDataIn(t.logs)).toEqual([]);
  });
});
