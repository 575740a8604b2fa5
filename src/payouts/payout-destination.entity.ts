import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LeasedRow } from '../work/leased-row';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * creating: written before the provider call that creates it; Unauthorized/Authorized: the provider's status;
 * failed: the create's outcome stayed unknown, so the card token (never stored) is gone with the request.
 */
export type PayoutDestinationStatus = 'creating' | 'Unauthorized' | 'Authorized' | 'failed';

/**
 * A payout card at the provider. Card data and the card token are credentials: neither is ever stored,
 * only the non-secret details the provider hands back (bin, last digits, payment system).
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('payout_destinations_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
@Index('payout_destinations_claim_free_idx', ['nextSyncAt'], { where: 'lease_owner IS NULL AND next_sync_at IS NOT NULL' })
@Index('payout_destinations_claim_leased_idx', ['nextSyncAt'], { where: 'lease_owner IS NOT NULL AND next_sync_at IS NOT NULL' })
@Entity('payout_destinations')
@Unique('payout_destinations_external_id_uq', ['externalId'])
@Index('payout_destinations_created_idx', ['createdAt', 'seq'])
// The follower reads this partial index only: authorized destinations never slow it down.
// Provider events name the destination: it is found through this index.
@Index('payout_destinations_provider_idx', ['providerDestinationId'], { where: 'provider_destination_id IS NOT NULL' })
@Index('payout_destinations_sync_due_idx', ['nextSyncAt'], { where: 'next_sync_at IS NOT NULL' })
export class PayoutDestination extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerDestinationId: string | null;

  /** externalID of the provider create, so a repeat after an unknown outcome returns the same destination. */
  @Column({ type: 'varchar', length: 40 })
  externalId: string;

  @Column({ type: 'varchar', length: 40 })
  identityId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  bin: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  lastDigits: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  paymentSystem: string | null;

  @Column({ type: 'varchar', length: 12 })
  status: PayoutDestinationStatus;

  /** Real time of the next provider read while Unauthorized; null when there is nothing to follow. */
  @Column({ type: 'timestamptz', nullable: true })
  nextSyncAt: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  /** Business time it was seen Authorized (the API shows it). */
  @Column({ type: 'timestamptz', nullable: true })
  authorizedAt: Date | null;

  /** Order of insertion: rows that share a createdAt (a test clock standing still, one batch) still list newest first. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /**
   * Business time (the Clock, so the test clock too), set by the service: the API shows it. Millisecond precision:
   * list cursors carry milliseconds, so rows never fall between pages.
   */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Database time of the last write; not shown by the API. */
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
