import { ConflictException, Injectable } from '@nestjs/common';
import { CouponsService } from '../coupons/coupons.service';
import { PlansService } from '../plans/plans.service';
import { SubscriptionEventsRepository } from './subscription-events.repository';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { discountTerms, Subscription } from './subscription.entity';

/**
 * A subscription's coupon, applied or removed later than its creation. One coupon at a time: a new one replaces the
 * one in force (its remaining periods are dropped). The coupon module counts the redemption in the same transaction.
 */
@Injectable()
export class SubscriptionDiscountsService {
  constructor(
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly coupons: CouponsService,
    private readonly plans: PlansService,
    private readonly audit: SubscriptionEventsRepository,
  ) {}

  apply(id: string, couponCode: string, actionId?: string): Promise<Subscription> {
    return this.lifecycle.change(id, actionId, async (em, s, now) => {
      if (s.status === 'canceled') throw new ConflictException('A canceled subscription takes no coupon');
      const plan = await this.plans.get(s.planId, em);
      const replaced = s.discount;
      s.discount = await this.coupons.redeem(em, couponCode, { subscriptionId: s.id, customerId: s.customerId, plan }, now);
      s.updatedAt = now;
      const data = { ...discountTerms(s.discount), ...(replaced ? { replaced: { couponId: replaced.couponId, code: replaced.code, periodsLeft: replaced.periodsLeft } } : {}) };
      await this.audit.record(em, { id: actionId, subscriptionId: s.id, type: 'discount_applied', data }, now);
    });
  }

  /** Removing the discount of a subscription that has none changes nothing. */
  remove(id: string, actionId?: string): Promise<Subscription> {
    return this.lifecycle.change(id, actionId, async (em, s, now) => {
      if (!s.discount) return;
      const removed = s.discount;
      s.discount = null;
      s.updatedAt = now;
      await this.audit.record(em, { id: actionId, subscriptionId: s.id, type: 'discount_removed', data: { couponId: removed.couponId, code: removed.code, periodsLeft: removed.periodsLeft } }, now);
    });
  }
}
