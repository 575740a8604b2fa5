import type { Plan } from '../plans/plan.entity';
import type { Subscription } from './subscription.entity';

/** What the coming renewal (or the first charge after a trial) will take. */
export interface UpcomingCharge {
  amount: number | null;
  currency: string | null;
}

/**
 * The amount the next period's charge will be made for: the plan amount × quantity, or, when a change waits for
 * that renewal, the pending plan's amount × the pending quantity (the renewal applies the change before it charges).
 * Null figures when the plan is unknown.
 */
export function upcomingCharge(s: Pick<Subscription, 'planId' | 'quantity' | 'pendingChange'>, plans: ReadonlyMap<string, Pick<Plan, 'amount' | 'currency'>>): UpcomingCharge {
  const planId = s.pendingChange?.planId ?? s.planId;
  const quantity = s.pendingChange?.quantity ?? s.quantity;
  const plan = plans.get(planId);
  return plan ? { amount: plan.amount * quantity, currency: plan.currency } : { amount: null, currency: null };
}
