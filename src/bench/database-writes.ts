import type { Client } from 'pg';

/** PostgreSQL's write counters: cumulative at a mark, the difference between two marks in `since`. */
export interface WritesSpent {
  walBytes: number;
  fullPageImages: number;
  checkpointBuffers: number;
  backendBuffers: number;
}

/**
 * PostgreSQL's own counters, so a figure shows what the server wrote, not only how long it took: a checkpoint running
 * under a pass, or pages first touched after one (full-page images), cost the pass's commits time that the daemon did
 * not cause. The WAL's size comes from its insert position, exact at once; the other counters come from the
 * statistics views (pg_stat_wal, pg_stat_bgwriter), which a busy backend updates at most once a second, so a pass's
 * last second may count in the next. Undefined where the views are missing (embedded PGlite).
 */
export class DatabaseWrites {
  constructor(private readonly db: Client) {}

  async mark(): Promise<WritesSpent | undefined> {
    try {
      const { rows } = await this.db.query<Record<keyof WritesSpent, string>>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0') AS "walBytes", w.wal_fpi AS "fullPageImages", b.buffers_checkpoint AS "checkpointBuffers", b.buffers_backend AS "backendBuffers"
           FROM pg_stat_wal w, pg_stat_bgwriter b`,
      );
      const row = rows[0];
      return { walBytes: Number(row.walBytes), fullPageImages: Number(row.fullPageImages), checkpointBuffers: Number(row.checkpointBuffers), backendBuffers: Number(row.backendBuffers) };
    } catch {
      return undefined;
    }
  }

  async since(before: WritesSpent | undefined): Promise<WritesSpent | undefined> {
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
