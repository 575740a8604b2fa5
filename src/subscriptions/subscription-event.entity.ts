import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Append-only audit trail: one row per change of a subscription, never updated or deleted. */
@Entity('subscription_events')
@Index('subscription_events_subscription_idx', ['subscriptionId', 'createdAt', 'id'])
export class SubscriptionEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
