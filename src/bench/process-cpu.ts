import { readdirSync, readFileSync } from 'node:fs';

/** Linux's clock tick for /proc times (USER_HZ): 100 on every mainstream build. */
const MS_PER_TICK = 10;

/** CPU milliseconds per process id, at one moment. */
export interface CpuMark {
  postgres: Map<number, number>;
  provider: Map<number, number>;
}

/** CPU spent since a mark, in ms; undefined where it cannot be read (not Linux, PostgreSQL elsewhere or embedded). */
export interface CpuSpent {
  postgresMs?: number;
  providerMs?: number;
}

/**
 * CPU time of the other processes a figure runs on, read from /proc (Linux only), so it shows where both cores went:
 * the daemon's own CPU is process.cpuUsage(); PostgreSQL's server processes and the provider simulator's are here.
 * A backend that exits between two marks takes its time with it; the daemon's pool keeps its connections.
 */
export class ProcessCpu {
  constructor(private readonly providerPid: number | undefined) {}

  mark(): CpuMark {
    return { postgres: cpuOf(postgresPids()), provider: cpuOf(this.providerPid === undefined ? [] : [this.providerPid]) };
  }

  since(before: CpuMark): CpuSpent {
    const after = this.mark();
    return { postgresMs: spent(before.postgres, after.postgres), providerMs: spent(before.provider, after.provider) };
  }
}

function cpuOf(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(pid, (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK);
    } catch {
      // gone, or no /proc here
    }
  }
  return times;
}

/** Every PostgreSQL server process on this machine (none when the server is elsewhere or embedded). */
function postgresPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names.filter((name) => /^\d+$/.test(name) && commandOf(name) === 'postgres').map(Number);
}

function commandOf(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Processes new since `before` count from zero; none at all reads as unknown. */
function spent(before: Map<number, number>, after: Map<number, number>): number | undefined {
  if (after.size === 0) return undefined;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
