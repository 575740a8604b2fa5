import type { Coupon } from './coupon.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCouponResponse(c: Coupon) {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    percentOff: c.percentOff,
    amountOff: c.amountOff,
    currency: c.currency,
    duration: c.duration,
    durationPeriods: c.durationPeriods,
    appliesToPlans: c.appliesToPlans,
    maxRedemptions: c.maxRedemptions,
    timesRedeemed: c.timesRedeemed,
    redeemBy: iso(c.redeemBy),
    firstTimeOnly: c.firstTimeOnly,
    status: c.status,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
