import { discountOf } from '../coupons/coupon-discount';
import type { Plan } from '../plans/plan.entity';
import { discountAppliesTo, pendingChangeAppliesAt, Subscription, SubscriptionDiscount } from './subscription.entity';

/** What the coming renewal (or the first charge after a trial) will take. */
export interface UpcomingCharge {
  amount: number | null;
  currency: string | null;
}

/**
 * The amount the charge at `chargeAt` will be made for: the plan amount × quantity, or, when a change waits for that
 * renewal, the pending plan's amount × the pending quantity (the renewal applies the change before it charges). A
 * change that waits for a later renewal (a plan migration's) does not count yet. Less the coupon in force where it
 * applies on that plan (it covers the coming charge: one with periods left has at least this one). Null figures when
 * the plan is unknown.
 */
export function upcomingCharge(
  s: Pick<Subscription, 'planId' | 'quantity' | 'pendingChange'> & { discount?: SubscriptionDiscount | null },
  plans: ReadonlyMap<string, Pick<Plan, 'amount' | 'currency'>>,
  chargeAt: Date | null,
): UpcomingCharge {
  const pending = pendingChangeAppliesAt(s.pendingChange, chargeAt) ? s.pendingChange : null;
  const planId = pending?.planId ?? s.planId;
  const quantity = pending?.quantity ?? s.quantity;
  const plan = plans.get(planId);
  if (!plan) return { amount: null, currency: null };
  const gross = plan.amount * quantity;
  const discount = s.discount && discountAppliesTo(s.discount, { id: planId, currency: plan.currency }) ? discountOf(gross, s.discount) : 0;
  return { amount: gross - discount, currency: plan.currency };
}
