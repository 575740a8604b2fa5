import type { Client } from 'pg';

/** PostgreSQL's cumulative write counters at one moment. */
interface WriteCounters {
  walBytes: number;
  fullPageImages: number;
  checkpointBuffers: number;
  backendBuffers: number;
}

/** What PostgreSQL wrote between two marks: WAL, the full-page images in it, and the buffers checkpoints and backends wrote out. */
export type WritesSpent = WriteCounters;

/**
 * PostgreSQL's own counters, so a figure shows what the server wrote, not only how long it took: a checkpoint running
 * under a pass, or pages first touched after one (full-page images), cost the pass's commits time that the daemon did
 * not cause. The WAL's size comes from its insert position, exact at once; the other counters come from the
 * statistics views (pg_stat_wal, pg_stat_bgwriter), which a busy backend updates at most once a second, so a pass's
 * last second may count in the next. Undefined where the views are missing (embedded PGlite).
 */
export class DatabaseWrites {
  constructor(private readonly db: Client) {}

  async mark(): Promise<WriteCounters | undefined> {
    try {
      const { rows } = await this.db.query<Record<keyof WriteCounters, string>>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0') AS "walBytes", w.wal_fpi AS "fullPageImages", b.buffers_checkpoint AS "checkpointBuffers", b.buffers_backend AS "backendBuffers"
           FROM pg_stat_wal w, pg_stat_bgwriter b`,
      );
      const row = rows[0];
      return { walBytes: Number(row.walBytes), fullPageImages: Number(row.fullPageImages), checkpointBuffers: Number(row.checkpointBuffers), backendBuffers: Number(row.backendBuffers) };
    } catch {
      return undefined;
    }
  }

  async since(before: WriteCounters | undefined): Promise<WritesSpent | undefined> {
    const after = await this.mark();
    if (!before || !after) return undefined;
    return {
      walBytes: after.walBytes - before.walBytes,
      fullPageImages: after.fullPageImages - before.fullPageImages,
      checkpointBuffers: after.checkpointBuffers - before.checkpointBuffers,
      backendBuffers: after.backendBuffers - before.backendBuffers,
    };
  }
}
