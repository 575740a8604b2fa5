import { Column } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * The two columns that make a domain row a job of the work engine (LeasedQueue): who holds it, and the fence every
 * write of the holder quotes. Entities whose rows are jobs extend it.
 */
export abstract class LeasedRow {
  /** The process (workers.id) working on this row; free when NULL or when that process stopped heartbeating. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  leaseOwner: string | null;

  /** Bumped on every claim; every write checks it, so a worker that lost its claim cannot write. */
  @Column({ type: 'bigint', default: 0, transformer: BIGINT_NUMBER })
  fence: number;
}

/** Whether a worker held the row when it was read (one that stopped heartbeating still counts: the engine takes it back). */
export function isHeld(row: LeasedRow): boolean {
  return row.leaseOwner !== null;
}
