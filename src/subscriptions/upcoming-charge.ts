import type { Plan } from '../plans/plan.entity';
import { pendingChangeAppliesAt, Subscription } from './subscription.entity';

/** What the coming renewal (or the first charge after a trial) will take. */
export interface UpcomingCharge {
  amount: number | null;
  currency: string | null;
}

/**
 * The amount the charge at `chargeAt` will be made for: the plan amount × quantity, or, when a change waits for that
 * renewal, the pending plan's amount × the pending quantity (the renewal applies the change before it charges). A
 * change that waits for a later renewal (a plan migration's) does not count yet. Null figures when the plan is unknown.
 */
export function upcomingCharge(
  s: Pick<Subscription, 'planId' | 'quantity' | 'pendingChange'>,
  plans: ReadonlyMap<string, Pick<Plan, 'amount' | 'currency'>>,
  chargeAt: Date | null,
): UpcomingCharge {
  const pending = pendingChangeAppliesAt(s.pendingChange, chargeAt) ? s.pendingChange : null;
  const planId = pending?.planId ?? s.planId;
  const quantity = pending?.quantity ?? s.quantity;
  const plan = plans.get(planId);
  return plan ? { amount: plan.amount * quantity, currency: plan.currency } : { amount: null, currency: null };
}
