import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import { LeasedRow } from '../work/leased-row';

export type PlanMigrationStatus = 'running' | 'done';

/**
 * Moving a plan's subscribers to another plan with notice, worked in the background a batch at a time: the row is its
 * own job on the work engine (due at `next_run_at`, real time), and its cursor and counts move in the transaction of
 * each batch, under the claim's fence, so a batch counts once whatever the replicas and restarts.
 */
@Entity('plan_migrations')
// The rows this process holds: its heartbeat compares them with the claims it works on.
@Index('plan_migrations_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
@Index('plan_migrations_claim_free_idx', ['nextRunAt'], { where: 'lease_owner IS NULL AND next_run_at IS NOT NULL' })
@Index('plan_migrations_claim_leased_idx', ['nextRunAt'], { where: 'lease_owner IS NOT NULL AND next_run_at IS NOT NULL' })
export class PlanMigration extends LeasedRow {
  /** The id the request's Idempotency-Key reserved, or a new one. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  fromPlanId: string;

  @Column({ type: 'uuid' })
  toPlanId: string;

  @Column({ type: 'int' })
  noticeDays: number;

  /** What the moved subscriptions' quantity becomes: `keep` (the only rule so far). */
  @Column({ type: 'varchar', length: 8, default: 'keep' })
  quantityRule: 'keep';

  @Column({ type: 'varchar', length: 12 })
  status: PlanMigrationStatus;

  /** The newest subscription when it was asked for: those made later are not moved. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  cutoffSeq: number;

  /** The last subscription walked (creation order). */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER, default: 0 })
  cursorSeq: number;

  @Column({ type: 'int', default: 0 })
  scheduledCount: number;

  @Column({ type: 'int', default: 0 })
  skippedCount: number;

  /** Real time of its next batch; null once done. */
  @Column({ type: 'timestamptz', nullable: true })
  nextRunAt: Date | null;

  /** Billing-clock times, like every time an answer shows. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  completedAt: Date | null;
}
