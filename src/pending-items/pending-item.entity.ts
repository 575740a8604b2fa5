import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import type { TaxRate } from '../plans/plan.entity';

/** `pending`: waits for the subscription's next period charge; `billed`: on that charge's invoice; `canceled`: dropped. */
export const PENDING_ITEM_STATUSES = ['pending', 'billed', 'canceled'] as const;
export type PendingItemStatus = (typeof PENDING_ITEM_STATUSES)[number];

/** `merchant`: asked for with `when: next_renewal`; `setup_fee`: the plan's setup fee of a subscription without a trial. */
export type PendingItemSource = 'merchant' | 'setup_fee';

/** One cart line of a pending item, as a plan line. */
export interface PendingItemLine {
  product: string;
  price: number;
  quantity: number;
  taxRate?: TaxRate;
}

/**
 * Money a subscription's next period charge collects as extra cart lines. The billing pass that makes that charge
 * marks the item billed in the same transaction (the item's row locked), so an item is billed exactly once whatever
 * the replicas and crashes, and a DELETE either drops it before or finds it billed.
 */
@Entity('pending_items')
// The billing pass reads the pending items of a batch of due subscriptions, oldest first.
@Index('pending_items_pending_idx', ['subscriptionId', 'seq'], { where: "status = 'pending'" })
// Lists: a subscription's items, newest first.
@Index('pending_items_subscription_idx', ['subscriptionId', 'createdAt', 'seq'])
// A customer's items (the console's customer page), newest first.
@Index('pending_items_customer_idx', ['customerId', 'createdAt', 'seq'])
@Index('pending_items_reference_uq', ['reference'], { unique: true, where: 'reference IS NOT NULL' })
// A subscription has one setup fee.
@Index('pending_items_setup_fee_uq', ['subscriptionId'], { unique: true, where: "source = 'setup_fee'" })
export class PendingItem {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'varchar', length: 12 })
  source: PendingItemSource;

  @Column({ type: 'jsonb' })
  lines: PendingItemLine[];

  /** Σ price × quantity of the lines, minor units. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  /** The merchant's unique name for it (one namespace with one-off charges'). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 10 })
  status: PendingItemStatus;

  /** The period charge that carried it, once billed. */
  @Column({ type: 'uuid', nullable: true })
  chargeId: string | null;

  /** Order of insertion: the pass carries items oldest first; rows that share a createdAt still list newest first. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /** Business time (the Clock), millisecond precision like every list cursor. */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Business time of the last change (billed, canceled). */
  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
