import { Subscription } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSubscriptionResponse(s: Subscription) {
  return {
    id: s.id,
    customerId: s.customerId,
    planId: s.planId,
    quantity: s.quantity,
    pendingChange: s.pendingChange,
    status: s.status,
    timezone: s.timezone,
    startAt: iso(s.startAt),
    currentPeriodStart: iso(s.currentPeriodStart),
    currentPeriodEnd: iso(s.currentPeriodEnd),
    nextBillingAt: iso(s.nextBillingAt),
    trialEndsAt: iso(s.trialEndsAt),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: iso(s.canceledAt),
    pausedAt: iso(s.pausedAt),
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    metadata: s.metadata,
    billingError: s.billingError ?? null,
    discount: s.discount ? { couponId: s.discount.couponId, code: s.discount.code, percentOff: s.discount.percentOff, amountOff: s.discount.amountOff, periodsLeft: s.discount.periodsLeft } : null,
  };
}

export function toSubscriptionEventResponse(e: SubscriptionEvent) {
  return {
    id: e.id,
    subscriptionId: e.subscriptionId,
    type: e.type,
    fromStatus: e.fromStatus,
    toStatus: e.toStatus,
    data: e.data,
    actor: e.actor,
    occurredAt: iso(e.occurredAt),
    createdAt: iso(e.createdAt),
  };
}
