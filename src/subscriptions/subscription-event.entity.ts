import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/** Append-only audit trail: one row per change of a subscription, never updated or deleted. */
@Entity('subscription_events')
@Index('subscription_events_subscription_idx', ['subscriptionId', 'seq'])
export class SubscriptionEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Order of writing: events of one transaction share a timestamp, never a sequence number. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  /** e.g. created, activated, charge_succeeded, charge_declined, past_due, paused, resumed, canceled. */
  @Column({ type: 'varchar', length: 40 })
  type: string;

  @Column({ type: 'varchar', length: 12, nullable: true })
  fromStatus: string | null;

  @Column({ type: 'varchar', length: 12, nullable: true })
  toStatus: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data: Record<string, unknown>;

  /** Business time (the clock) at which it happened. */
  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  /** The same business time as occurredAt (set by recordSubscriptionEvent), so the API shows one clock. */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
