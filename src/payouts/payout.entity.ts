import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn, Unique } from 'typeorm';
import { LeasedRow } from '../work/leased-row';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * pending: not (known to be) at the provider yet, or waiting for its destination; processing: the withdrawal
 * exists and is Pending; succeeded / failed: final.
 */
export type PayoutStatus = 'pending' | 'processing' | 'succeeded' | 'failed';

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['pending', 'processing', 'succeeded', 'failed'];

/**
 * One payout to one destination, making at most one withdrawal: its externalID is fixed at creation and is the
 * only one ever sent, so every repeat (after a fault, a crash or on another replica) names the same withdrawal.
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('payouts_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
@Index('payouts_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('payouts_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('payouts')
@Unique('payouts_withdrawal_external_id_uq', ['withdrawalExternalId'])
// Lists: newest first, optionally by status or batch; (batch, status) counts a batch.
@Index('payouts_created_idx', ['createdAt', 'seq'])
@Index('payouts_status_idx', ['status', 'createdAt', 'seq'])
@Index('payouts_batch_idx', ['batchId', 'createdAt', 'seq'])
@Index('payouts_batch_status_idx', ['batchId', 'status'])
// Claims read this partial index only: finished payouts never slow the queue down.
// Provider events name the withdrawal: its payout is found through this index.
@Index('payouts_provider_withdrawal_idx', ['providerWithdrawalId'], { where: 'provider_withdrawal_id IS NOT NULL' })
@Index('payouts_work_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
// Payouts waiting for a destination are woken together when it becomes Authorized.
@Index('payouts_destination_pending_idx', ['destinationId'], { where: "status = 'pending'" })
// A merchant's reference names one payout for good: the withdrawal's externalID derives from it.
@Index('payouts_reference_uq', ['reference'], { unique: true, where: 'reference IS NOT NULL' })
export class Payout extends LeasedRow {
  /** Made by the daemon before the insert, so the externalID can be derived from it. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  destinationId: string;

  @Column({ type: 'uuid', nullable: true })
  batchId: string | null;

  /** The wallet at creation: every repeat of the withdrawal create must carry the very same body. */
  @Column({ type: 'varchar', length: 40 })
  walletId: string;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 12 })
  status: PayoutStatus;

  /** The merchant's own name for this payout (unique), or null. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference: string | null;

  /** From the reference when there is one (see payout-identity.ts), else 'w' + the id's hex: stable for the life of the payout. */
  @Column({ type: 'varchar', length: 40 })
  withdrawalExternalId: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerWithdrawalId: string | null;

  /** Provider failure code path (e.g. authorization_failed:insufficient_funds) or the refusal that failed it. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  failureCode: string | null;

  /** Real time at which the processor should work on it next (payouts have no calendar); null once final. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** Real time before which it is not retried after a technical failure (provider down, network). */
  @Column({ type: 'timestamptz', nullable: true })
  notBefore: Date | null;

  @Column({ type: 'int', default: 0 })
  technicalFailures: number;

  /** Real time the withdrawal was seen created: the age of a pending withdrawal (its poll spacing) counts from here. */
  @Column({ type: 'timestamptz', nullable: true })
  submittedAt: Date | null;

  /** Business time it became final (the API shows it). */
  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

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

  /** Business time of the last write; set by every write (never bumped by the database, which knows only real time). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
