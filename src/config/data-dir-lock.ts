import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** Who holds a DATA_DIR: written at start, removed at exit; a file left by a process that died is taken over. */
const LOCK_FILE = 'daemon.lock';

interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly holder: LockHolder) {
    super(
      `DATA_DIR ${dataDir} is in use by another billing daemon (pid ${holder.pid}, started ${holder.startedAt}): ` +
        `its embedded database and sandbox state can have one process only. Stop that daemon first (kill ${holder.pid}), ` +
        `or start this one with another DATA_DIR; several processes on one database need a shared PostgreSQL (DATABASE_URL).`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  path: string;
  /** A holder on another host whose liveness cannot be checked, replaced by this process (a container recreated on a kept volume). */
  replaced?: LockHolder;
  release(): void;
}

/** Whether a process of this host with this pid runs, and is a node process (a pid is reused by anything after a crash). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc: the signal check is all there is
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined; // missing, or cut short by a crash while it was written: nobody holds it
  }
}

/**
 * Takes DATA_DIR for this process, or throws DataDirLockedError naming the live process that has it. PGlite
 * itself would only abort (`Aborted()`) on a second opener, without saying who or what to do.
 */
export function lockDataDir(dataDir: string, me = { pid: process.pid, hostname: hostname() }): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(resolve(dataDir), LOCK_FILE);
  const mine: LockHolder = { ...me, startedAt: new Date().toISOString() };
  let replaced: LockHolder | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx', mode: 0o644 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw e;
    }
    const holder = readHolder(path);
    if (holder && holder.hostname === me.hostname && holder.pid !== me.pid && isRunning(holder.pid)) throw new DataDirLockedError(dataDir, holder);
    if (holder && holder.hostname !== me.hostname) replaced = holder;
    // Stale: its process is gone (or it was this very pid, restarted in a fresh container). Remove it and take it.
    try {
      unlinkSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  const release = () => {
    try {
      if (readHolder(path)?.pid === me.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return { path, ...(replaced && { replaced }), release };
}
