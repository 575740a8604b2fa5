import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/** `once`: the next period charged; `repeating`: `durationPeriods` period charges; `forever`: every one. */
export type CouponDuration = 'once' | 'repeating' | 'forever';
export type CouponStatus = 'active' | 'archived';

/**
 * A discount merchants hand out by its code. `timesRedeemed` counts the subscriptions it was applied to; the
 * counter moves only by a conditional UPDATE in the transaction that applies it, so `maxRedemptions` holds exactly
 * whatever the replicas.
 */
@Entity('coupons')
// Codes are unique whatever their case: they are kept upper case.
@Index('coupons_code_uq', ['code'], { unique: true })
@Index('coupons_created_idx', ['createdAt', 'seq'])
@Index('coupons_status_idx', ['status', 'createdAt', 'seq'])
export class Coupon {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** 1..100, or null for an amount-off coupon. */
  @Column({ type: 'int', nullable: true })
  percentOff: number | null;

  /** Minor units of `currency`, or null for a percent-off coupon. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER, nullable: true })
  amountOff: number | null;

  /** The currency of `amountOff`; null for a percent-off coupon, which applies in any. */
  @Column({ type: 'char', length: 3, nullable: true })
  currency: string | null;

  @Column({ type: 'varchar', length: 10 })
  duration: CouponDuration;

  @Column({ type: 'int', nullable: true })
  durationPeriods: number | null;

  /** The plans it applies to; null: every plan. */
  @Column({ type: 'uuid', array: true, nullable: true })
  appliesToPlans: string[] | null;

  @Column({ type: 'int', nullable: true })
  maxRedemptions: number | null;

  @Column({ type: 'int', default: 0 })
  timesRedeemed: number;

  /** Business time after which it can no longer be applied (subscriptions that have it keep it). */
  @Column({ type: 'timestamptz', nullable: true })
  redeemBy: Date | null;

  @Column({ type: 'boolean', default: false })
  firstTimeOnly: boolean;

  @Column({ type: 'varchar', length: 10 })
  status: CouponStatus;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /** Business time (the Clock), millisecond precision like every list cursor. */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
