import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import { Coupon, CouponStatus } from './coupon.entity';

export type NewCoupon = Omit<Coupon, 'seq' | 'timesRedeemed'>;

/** Every statement on the `coupons` and `coupon_redemptions` tables. */
@Injectable()
export class CouponsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts the coupon; answers null when its code (or id) is taken. */
  async insert(coupon: NewCoupon): Promise<Coupon | null> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO coupons (id, code, name, percent_off, amount_off, currency, duration, duration_periods, applies_to_plans, max_redemptions,
                            redeem_by, first_time_only, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        coupon.id,
        coupon.code,
        coupon.name,
        coupon.percentOff,
        coupon.amountOff,
        coupon.currency,
        coupon.duration,
        coupon.durationPeriods,
        coupon.appliesToPlans,
        coupon.maxRedemptions,
        coupon.redeemBy,
        coupon.firstTimeOnly,
        coupon.status,
        coupon.createdAt,
        coupon.updatedAt,
      ],
    );
    return rows.length > 0 ? this.findById(coupon.id) : null;
  }

  findById(id: string): Promise<Coupon | null> {
    return this.dataSource.getRepository(Coupon).findOneBy({ id });
  }

  findByCode(code: string, em: EntityManager = this.dataSource.manager): Promise<Coupon | null> {
    return em.getRepository(Coupon).findOneBy({ code });
  }

  page(options: ListOptions & { status?: CouponStatus }): Promise<Page<Coupon>> {
    const query = this.dataSource.getRepository(Coupon).createQueryBuilder('c');
    if (options.status) query.where('c.status = :status', { status: options.status });
    return paginate(query, options);
  }

  async archive(id: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE coupons SET status = 'archived', updated_at = $2 WHERE id = $1 AND status = 'active'`, [id, at]);
  }

  /**
   * One redemption in the caller's transaction: the counter moves only while the coupon is active and below its cap
   * (the row lock makes concurrent redemptions on every replica wait for each other and re-check), and the
   * redemption is recorded with it. Answers false, changing nothing, when the cap is reached (or it was archived).
   */
  async redeem(em: EntityManager, redemption: { couponId: string; subscriptionId: string; customerId: string }, at: Date): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `WITH counted AS (
         UPDATE coupons SET times_redeemed = times_redeemed + 1, updated_at = $4
          WHERE id = $1 AND status = 'active' AND (max_redemptions IS NULL OR times_redeemed < max_redemptions)
          RETURNING id)
       INSERT INTO coupon_redemptions (coupon_id, subscription_id, customer_id, redeemed_at)
       SELECT id, $2, $3, $4 FROM counted
       RETURNING id`,
      [redemption.couponId, redemption.subscriptionId, redemption.customerId, at],
    );
    return rows.length > 0;
  }

  /** Whether the customer has paid before: a succeeded charge of a positive amount (read only; billing owns charges). */
  async hasPaid(em: EntityManager, customerId: string): Promise<boolean> {
    const [row] = await em.query(`SELECT EXISTS (SELECT 1 FROM charges WHERE customer_id = $1 AND status = 'succeeded' AND amount > 0) AS paid`, [customerId]);
    return row.paid === true;
  }
}
