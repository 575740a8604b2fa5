import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LeasedRow } from '../work/leased-row';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

export type CustomerStatus = 'unready' | 'ready';

/**
 * A payer known to the provider. The customer access token is handed back once at creation and never
 * stored. Only the card's non-secret details (bin, last digits, payment system) are kept.
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('customers_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
@Index('customers_claim_free_idx', ['nextSyncAt'], { where: 'lease_owner IS NULL AND next_sync_at IS NOT NULL' })
@Index('customers_claim_leased_idx', ['nextSyncAt'], { where: 'lease_owner IS NOT NULL AND next_sync_at IS NOT NULL' })
@Entity('customers')
// Lists: newest first, optionally by status.
@Index('customers_created_idx', ['createdAt', 'seq'])
@Index('customers_status_idx', ['status', 'createdAt', 'seq'])
@Index('customers_sync_due_idx', ['nextSyncAt'], { where: 'next_sync_at IS NOT NULL' })
export class Customer extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('customers_provider_id_uq', { unique: true })
  @Column({ type: 'varchar', length: 40 })
  providerCustomerId: string;

  @Column({ type: 'varchar', length: 40 })
  shopId: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  phone: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ type: 'varchar', length: 10 })
  status: CustomerStatus;

  /** The provider binding id of the active card (the newest succeeded binding). */
  @Column({ type: 'varchar', length: 40, nullable: true })
  activeBindingId: string | null;

  /** The binding whose customer.ready was recorded: one event per successful binding, however often it is seen. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  announcedBindingId: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  cardBin: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  cardLastDigits: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  cardPaymentSystem: string | null;

  /** Id of the last customer event read from the provider (operation 4 paging). */
  @Column({ type: 'int', nullable: true })
  lastEventId: number | null;

  /** When the follower should next read this customer at the provider; null when nothing is in progress. */
  @Column({ type: 'timestamptz', nullable: true })
  nextSyncAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  readyAt: Date | null;

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

  /** Business time of the last change the API shows; set by every such write (never bumped by the database). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** Real (database) time of the insert: the follower's poll ladder counts the customer's age from here, whatever the test clock says. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  realCreatedAt: Date;
}
