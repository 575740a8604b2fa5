import type { NewEvent } from '../events/event-types';
import type { toSubscriptionResponse } from './subscription-response';

export type SubscriptionView = ReturnType<typeof toSubscriptionResponse>;

/**
 * The changes a merchant is told about with `subscription.updated` (the contract's "status, period, cancel-at-period-end",
 * and v1.2's plan, quantity and pending change; v1.3's discount).
 */
const ANNOUNCED: (keyof SubscriptionView)[] = ['status', 'currentPeriodStart', 'currentPeriodEnd', 'cancelAtPeriodEnd', 'planId', 'quantity', 'pendingChange', 'discount'];

/**
 * The merchant event for a subscription that was `before` and is `after` (both as the admin GET shows it), or null
 * when nothing it announces changed: `subscription.created` without a before, `subscription.canceled` when it ended,
 * else `subscription.updated` with the former values of every changed field (updatedAt aside) in `previous`.
 */
export function subscriptionChangeEvent(before: SubscriptionView | null, after: SubscriptionView): NewEvent | null {
  if (!before) return { type: 'subscription.created', data: { object: after } };
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof SubscriptionView)[]) {
    if (key !== 'updatedAt' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  if (after.status === 'canceled' && before.status !== 'canceled') return { type: 'subscription.canceled', data: { object: after, previous } };
  if (!ANNOUNCED.some((key) => key in previous)) return null;
  return { type: 'subscription.updated', data: { object: after, previous } };
}
