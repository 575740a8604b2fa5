import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');

/**
 * Outside the engine, only these files may name the lease columns in SQL, each for a statement that must do the
 * domain's write and end the claim in one round trip (they are in the hot-statement catalogue, sql/hot/):
 */
const ONE_ROUND_TRIP_STATEMENTS: Record<string, string> = {
  'billing/charges.repository.ts': "a charge's settlement with its follow-ups; a cancel that moves the fence on purpose; the sweep of charges in progress",
  'payouts/payouts.repository.ts': "a payout's final state with its event",
  'webhooks/webhook-deliveries.repository.ts': "an attempt recorded with the delivery's next state",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.entity.ts') ? [path] : [];
  });
}

describe('the lease rules', () => {
  it('belong to the work engine: no other module writes or reads lease_owner in SQL, save the one-round-trip statements listed', () => {
    const offenders = sourceFiles(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => !file.startsWith('work/') && !(file in ONE_ROUND_TRIP_STATEMENTS))
      .filter((file) => /lease_owner|leaseOwner/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('lists no file that no longer needs it', () => {
    const stale = Object.keys(ONE_ROUND_TRIP_STATEMENTS).filter((file) => !/lease_owner|leaseOwner/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(stale).toEqual([]);
  });
});
