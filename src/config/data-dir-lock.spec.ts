import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('the DATA_DIR lock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const holder = (pid: number, host = 'here') => writeFileSync(join(dir, 'daemon.lock'), JSON.stringify({ pid, hostname: host, startedAt: '2027-01-31T00:00:00.000Z' }));

  it('refuses a DATA_DIR a running process holds, naming it and what to do', () => {
    // This test's own process is alive and runs node: it plays the other daemon.
    holder(process.pid);
    const attempt = () => lockDataDir(dir, { pid: process.pid + 1, hostname: 'here' });
    expect(attempt).toThrow(DataDirLockedError);
    expect(attempt).toThrow(new RegExp(`in use by another billing daemon \\(pid ${process.pid}, started 2027-01-31T00:00:00.000Z\\).*kill ${process.pid}.*another DATA_DIR`));
  });

  it('takes over the lock of a process that died, and releases it at the end', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    holder(Number(dead.stdout));
    const lock = lockDataDir(dir, { pid: 4242, hostname: 'here' });
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: 4242, hostname: 'here' });
    expect(lock.replaced).toBeUndefined();
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('takes over its own pid (a restarted container) and, with a warning, a lock from another host', () => {
    holder(4242);
    expect(lockDataDir(dir, { pid: 4242, hostname: 'here' }).replaced).toBeUndefined();
    holder(process.pid, 'elsewhere');
    expect(lockDataDir(dir, { pid: 4242, hostname: 'here' }).replaced).toMatchObject({ pid: process.pid, hostname: 'elsewhere' });
  });

  it('takes a lock file cut short by a crash', () => {
    writeFileSync(join(dir, 'daemon.lock'), '{"pid":');
    expect(() => lockDataDir(dir, { pid: 4242, hostname: 'here' })).not.toThrow();
  });
});
