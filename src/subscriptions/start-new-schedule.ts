import { periodEnd } from '../common/calendar/billing-calendar';
import type { Plan } from '../plans/plan.entity';
import type { Subscription } from './subscription.entity';

/**
 * The one rule for re-anchoring (a move to a plan of another interval): a new schedule of `plan`'s periods starts at
 * `at`, period 0 beginning there and each next one derived from the new anchor by the calendar. `firstPeriodBilled`:
 * period 0 is charged with the change itself (a change made now), so it is the current period and billing goes on
 * at period 1; otherwise (a pending change reached at a renewal) the renewal at `at` bills period 0.
 */
export function startNewSchedule(s: Subscription, plan: Pick<Plan, 'interval' | 'intervalCount'>, at: Date, firstPeriodBilled: boolean): void {
  s.billingAnchor = at;
  if (!firstPeriodBilled) {
    s.nextPeriodIndex = 0;
    return;
  }
  s.nextPeriodIndex = 1;
  s.currentPeriodStart = at;
  s.currentPeriodEnd = periodEnd(at, s.timezone, plan.interval, plan.intervalCount, 0);
  s.nextBillingAt = s.currentPeriodEnd;
}
