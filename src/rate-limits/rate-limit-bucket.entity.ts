import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One token bucket shared by every replica: a credential's requests (`credential:<id>`) or an address's failed
 * sign-ins (`address:<ip>`). The table is UNLOGGED (see its migration): buckets are worth nothing after a crash, and
 * without WAL an update costs no disk flush, so the one row of a busy key is not held locked for an fsync per request.
 * No index but the key: an update then stays on its page (HOT), and pruning idle buckets reads a table of few rows.
 */
@Entity('rate_limit_buckets')
export class RateLimitBucket {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  bucket: string;

  /** Tokens left at updatedAt (fractional: refilled continuously). */
  @Column({ type: 'double precision' })
  tokens: number;

  /** Real time of the last take (SystemClock of the replica that took; never moved backwards). */
  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /** Whether the last take found a token. */
  @Column({ type: 'boolean' })
  allowed: boolean;
}
