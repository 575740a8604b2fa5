import { firstPeriodIndexAtOrAfter, periodStart } from '../common/calendar/billing-calendar';
import type { Plan } from '../plans/plan.entity';
import type { Subscription } from './subscription.entity';

/**
 * Billing goes on at the first boundary of the original schedule at or after `now` (never before a period already
 * billed). The current period becomes the one that ends there, i.e. the period the subscription is in now (left
 * unbilled when it began inside a pause or while unpaid), so currentPeriodEnd = nextBillingAt as for any running
 * subscription. Before the first boundary (a trial, a start still ahead) the periods shown stay as they are.
 */
export function continueOnSchedule(s: Subscription, plan: Pick<Plan, 'interval' | 'intervalCount'>, now: Date): void {
  const anchor = s.billingAnchor as Date;
  const at = (index: number) => periodStart(anchor, s.timezone, plan.interval, plan.intervalCount, index);
  const index = Math.max(s.nextPeriodIndex, firstPeriodIndexAtOrAfter(anchor, s.timezone, plan.interval, plan.intervalCount, now));
  s.nextPeriodIndex = index;
  s.nextBillingAt = at(index);
  if (index > 0) {
    s.currentPeriodStart = at(index - 1);
    s.currentPeriodEnd = s.nextBillingAt;
  }
}
