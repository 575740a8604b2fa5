import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Actor } from '../common/auth/actor';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/** Append-only audit trail: one row per change of a subscription, never updated or deleted. */
@Entity('subscription_events')
@Index('subscription_events_subscription_idx', ['subscriptionId', 'seq'])
// The revenue report: statuses in each subscription's order (to_status in the key so they are read from the index
// alone), plan changes, and churn by time, without reading the rest of the trail (most of it is charge events).
@Index('subscription_events_status_idx', ['subscriptionId', 'occurredAt', 'seq', 'toStatus'], { where: 'to_status IS NOT NULL' })
@Index('subscription_events_changed_idx', ['subscriptionId', 'occurredAt', 'seq'], { where: "type = 'changed'" })
@Index('subscription_events_ended_idx', ['occurredAt'], { where: "to_status IN ('canceled', 'unpaid')" })
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

  /** Who made the change: a credential of the admin API, the console, or the daemon itself (the default). */
  @Column({ type: 'jsonb', default: () => `'{"type": "system"}'` })
  actor: Actor;

  /** Business time (the clock) at which it happened. */
  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  /** The same business time as occurredAt (set by recordSubscriptionEvent), so the API shows one clock. */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
