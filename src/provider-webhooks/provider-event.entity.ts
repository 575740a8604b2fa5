import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { LeasedRow } from '../work/leased-row';

/**
 * A verified event the provider pushed, stored before it is answered and applied by the work engine: the row is
 * its own job, due at `next_attempt_at` until applied. One row per (topic, object, event id): a repeat is a no-op.
 */
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
// The rows this process holds: its heartbeat compares them with the claims it works on.
@Index('provider_events_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
@Index('provider_events_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('provider_events_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('provider_events')
@Unique('provider_events_dedupe_uq', ['dedupeKey'])
@Index('provider_events_due_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
@Index('provider_events_received_idx', ['receivedAt'])
export class ProviderEvent extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** `topic|object id|event id`: wallet event ids repeat across objects, so the object is part of the key. */
  @Column({ type: 'varchar', length: 200 })
  dedupeKey: string;

  @Column({ type: 'varchar', length: 20 })
  topic: string;

  @Column({ type: 'varchar', length: 40 })
  eventType: string;

  /** The provider's id of the invoice, customer, withdrawal or destination the event is about. */
  @Column({ type: 'varchar', length: 40 })
  objectId: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** Real time. */
  @CreateDateColumn({ type: 'timestamptz' })
  receivedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  appliedAt: Date | null;

  /** What applying it found: `applied`, or `unknown_object` when nothing of ours matched (polling covers it). */
  @Column({ type: 'varchar', length: 20, nullable: true })
  outcome: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;

}
