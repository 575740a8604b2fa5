import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One application of a coupon to a subscription, written with the counter's increment: support can list every coupon
 * a customer ever redeemed, and the count of rows equals `timesRedeemed`.
 */
@Entity('coupon_redemptions')
@Index('coupon_redemptions_coupon_idx', ['couponId'])
@Index('coupon_redemptions_customer_idx', ['customerId'])
export class CouponRedemption {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  couponId: string;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'timestamptz' })
  redeemedAt: Date;
}
