import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ShutdownSignal } from '../common/shutdown-signal';
import type { AppConfig } from '../config/app-config';
import { WorkMetricsService } from './work-metrics.service';
import { WorkRunnerService } from './work-runner.service';
import { WorkTuning } from './work-tuning';
import { WorkerRegistryService } from './worker-registry.service';
import type { WorkersRepository } from './workers.repository';

/** A runner whose registry knows the queues `names` (as LeasedQueues.create would have registered them). */
function runnerWith(names: string[], schedulerEnabled: boolean) {
  const tuning = new WorkTuning({ idlePollMs: 60_000 });
  const metrics = { heartbeatFailures: { inc: () => undefined } } as unknown as WorkMetricsService;
  const registry = new WorkerRegistryService({} as WorkersRepository, tuning, metrics);
  const none = async () => undefined;
  for (const name of names) registry.addQueue({ name, releaseAll: none, sweep: none, recover: none });
  return new WorkRunnerService({ schedulerEnabled } as AppConfig, tuning, registry, new ShutdownSignal());
}

describe('WorkRunnerService', () => {
  it('refuses to kick or start a queue no one made: a misspelt name is a programming error, not a kick that reaches nothing', () => {
    const runner = runnerWith(['charges'], false);
    expect(() => runner.kick('charge')).toThrow(/No queue is named charge/);
    expect(() => runner.start('charge', async () => 0)).toThrow(/No queue is named charge/);
    // A known queue whose loop does not run here (SCHEDULER_ENABLED=false) is kicked as before: nothing to wake.
    expect(() => runner.kick('charges')).not.toThrow();
  });

  it('wakes the loop of a known queue at once instead of at its next idle poll', async () => {
    const runner = runnerWith(['payouts'], true);
    let drains = 0;
    runner.start('payouts', async () => {
      drains++;
      return 0;
    });
    const waitFor = async (n: number) => {
      for (const deadline = Date.now() + 5_000; drains < n && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await waitFor(1);
    runner.kick('payouts');
    await waitFor(2);
    expect(drains).toBe(2);
    await runner.beforeApplicationShutdown();
  });

  it('drains again at once after a kick that came while a drain was running (its work may have been committed too late for it)', async () => {
    const runner = runnerWith(['payouts'], true);
    let drains = 0;
    let release: () => void = () => undefined;
    runner.start('payouts', async () => {
      drains++;
      // The first drain is held until the kick has come, as a drain that claimed before the new row committed.
      if (drains === 1) await new Promise<void>((resolve) => (release = resolve));
      return 0;
    });
    for (const deadline = Date.now() + 5_000; drains < 1 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 5));
    runner.kick('payouts');
    release();
    for (const deadline = Date.now() + 5_000; drains < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(drains).toBe(2);
    await runner.beforeApplicationShutdown();
  });
});

const SRC = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('queue names', () => {
  it('are written once, as a constant that both the definition and the loop use: no string literal names a queue', () => {
    const literal = /queues\.create<\w+>\(\{[^}]*?\bname:\s*['"`]|runner\.(start|kick)\(\s*['"`]/s;
    const offenders = sourceFiles(SRC)
      .filter((path) => literal.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});
