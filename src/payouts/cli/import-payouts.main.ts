/**
 * Imports a CSV file of payouts through the admin API and follows them until they settle:
 *   node dist/payouts/cli/import-payouts.main.js payouts.csv [--url http://localhost:3000] [--token ...]
 * The header is destinationId,amount,currency[,reference][,metadata]. Rows are checked here first; a bad file sends nothing.
 * Each chunk of up to 10,000 rows is one batch posted with an Idempotency-Key made from the file's hash and the
 * chunk's index, so running the same file again follows the batches already made instead of paying twice.
 * With --no-wait it exits once the batches are accepted. Exit status: 0 all succeeded (or accepted, with --no-wait),
 * 2 some payouts failed, 1 the import itself failed.
 */
import { SingleBar } from 'cli-progress';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_BATCH_ITEMS } from '../payout-limits';
import type { PayoutBatchResponse } from '../payout-responses';
import { AdminApiClient, AdminApiError } from './admin-api.client';
import { parsePayoutCsv } from './payout-csv';

const USAGE = 'usage: import-payouts <file.csv> [--url http://localhost:3000] [--token <admin token>] [--poll-ms 1000] [--no-wait]';
const MAX_ERRORS_SHOWN = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      token: { type: 'string' },
      'poll-ms': { type: 'string', default: '1000' },
      'no-wait': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const file = positionals[0];
  const token = values.token ?? process.env.ADMIN_TOKEN;
  const pollMs = Number(values['poll-ms']);
  if (positionals.length !== 1 || !file) return fail(USAGE);
  if (!token) return fail('no admin token: pass --token or set ADMIN_TOKEN');
  if (!Number.isInteger(pollMs) || pollMs < 50) return fail('--poll-ms must be an integer of at least 50');

  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch (error) {
    return fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { items, errors } = parsePayoutCsv(content);
  if (errors.length > 0) {
    console.error(`${file}: ${errors.length} problem(s); nothing was sent.`);
    for (const error of errors.slice(0, MAX_ERRORS_SHOWN)) console.error(`  ${error}`);
    if (errors.length > MAX_ERRORS_SHOWN) console.error(`  … and ${errors.length - MAX_ERRORS_SHOWN} more`);
    return 1;
  }

  const api = new AdminApiClient(values.url, token);
  const fileHash = createHash('sha256').update(content).digest('hex');
  const batches: PayoutBatchResponse[] = [];
  for (let start = 0, chunk = 0; start < items.length; start += MAX_BATCH_ITEMS, chunk++) {
    const batch = await api.createBatch(items.slice(start, start + MAX_BATCH_ITEMS), `payouts-import-${fileHash.slice(0, 32)}-${chunk}`);
    batches.push(batch);
  }
  console.log(`${basename(file)}: ${items.length} payout(s) accepted in ${batches.length} batch(es): ${batches.map((b) => b.id).join(', ')}`);
  // The daemon's scheduler sends them whether or not anyone watches.
  if (values['no-wait']) return 0;

  const bar = new SingleBar({
    format: 'Payouts |{bar}| {percentage}% | {value}/{total} settled | succeeded {succeeded} | failed {failed} | pending {open}',
    hideCursor: true,
    // Piped output (CI, a log file) gets a plain progress line every few seconds instead of a redrawn bar.
    noTTYOutput: true,
    notTTYSchedule: 2_000,
  });
  let counts = totals(batches);
  bar.start(items.length, counts.succeeded + counts.failed, { ...counts, open: counts.pending + counts.processing });
  while (counts.succeeded + counts.failed < items.length) {
    await sleep(pollMs);
    const current = await Promise.all(batches.map((b) => api.getBatch(b.id)));
    counts = totals(current);
    bar.update(counts.succeeded + counts.failed, { ...counts, open: counts.pending + counts.processing });
  }
  bar.stop();

  const failures = new Map<string, number>();
  if (counts.failed > 0) {
    for (const batch of batches) {
      for (const payout of await api.failedPayouts(batch.id)) {
        const code = payout.failureCode ?? 'unknown';
        failures.set(code, (failures.get(code) ?? 0) + 1);
      }
    }
  }
  console.log('');
  console.log(`Summary: ${counts.succeeded} succeeded, ${counts.failed} failed, ${items.length} total`);
  if (failures.size > 0) {
    console.log('Failures by code:');
    for (const [code, count] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`  ${code}: ${count}`);
  }
  return counts.failed > 0 ? 2 : 0;
}

function totals(batches: PayoutBatchResponse[]): PayoutBatchResponse['counts'] {
  const sum = { pending: 0, processing: 0, succeeded: 0, failed: 0 };
  for (const { counts } of batches) {
    sum.pending += counts.pending;
    sum.processing += counts.processing;
    sum.succeeded += counts.succeeded;
    sum.failed += counts.failed;
  }
  return sum;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof AdminApiError ? error.message : `import failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
