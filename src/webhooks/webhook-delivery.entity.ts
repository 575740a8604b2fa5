import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LeasedRow } from '../work/leased-row';

/** `pending` until an attempt succeeds or the retry window ends; `canceled` when its endpoint was disabled. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/**
 * One event to send to one endpoint: made in the transaction that records the event (or by a redelivery), and a
 * job of the work engine's leased queue, due at `next_attempt_at` (real time).
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('webhook_deliveries_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
@Index('webhook_deliveries_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('webhook_deliveries_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('webhook_deliveries')
// Claims read this partial index only: finished deliveries never slow the queue down.
@Index('webhook_deliveries_work_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
@Index('webhook_deliveries_event_idx', ['eventId'])
@Index('webhook_deliveries_endpoint_idx', ['endpointId'])
export class WebhookDelivery extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'uuid' })
  endpointId: string;

  @Column({ type: 'varchar', length: 12, default: 'pending' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attemptCount: number;

  /** When to try next (real time); null once it succeeded, failed or was canceled. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  // Millisecond precision: list cursors carry milliseconds, so rows never fall between pages.
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
