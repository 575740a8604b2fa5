import { Injectable } from '@nestjs/common';
import { DunningService } from '../dunning/dunning.service';
import { PlansService } from '../plans/plans.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargesService } from './charges.service';
import { classifyDecline } from '../dunning/decline-codes';

/** Why an attempt or a charge failed, as collection treats it. */
export type FailureClass = 'hard' | 'soft' | 'technical';

/** hard/soft for a declined attempt (from the provider's code), technical for one whose outcome is unknown. */
function attemptClass(attempt: ChargeAttempt): FailureClass | null {
  if (attempt.status === 'declined') return classifyDecline(attempt.errorCode ?? 'unknown');
  if (attempt.status === 'unknown') return 'technical';
  return null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What a one-off charge's dunning view shows: no ladder, no final action, one attempt. */
const ONE_OFF_DUNNING = { retryDelays: [] as readonly string[], finalAction: 'none' as const, maxAttempts: 1, deadline: (start: Date) => start };

/**
 * How a charge is being collected, read for an operator: each attempt with the provider's code and its class,
 * attempt n of N under the plan's ladder, the next attempt and when collection gives up.
 */
@Injectable()
export class ChargeDunningService {
  constructor(
    private readonly charges: ChargesService,
    private readonly subscriptions: SubscriptionsService,
    private readonly plans: PlansService,
    private readonly dunningPolicies: DunningService,
  ) {}

  async of(id: string) {
    const { charge, attempts } = await this.charges.get(id);
    // A one-off is not dunned: one attempt, and a decline ends it.
    const dunning = charge.kind === 'one_off' ? ONE_OFF_DUNNING : await this.policyOf(charge.subscriptionId as string);
    const lastErrorClass: FailureClass | null =
      charge.technicalFailures > 0 ? 'technical' : charge.lastErrorCode !== null ? classifyDecline(charge.lastErrorCode) : null;
    const scheduled = charge.status === 'retrying' || charge.status === 'pending';
    const settled = attempts.filter((a) => a.status === 'declined' || a.status === 'succeeded');
    const manualAttempts = settled.filter((a) => a.manual).length;
    const ladderAttempts = settled.length - manualAttempts;
    return {
      chargeId: charge.id,
      status: charge.status,
      retryDelays: dunning.retryDelays,
      finalAction: dunning.finalAction,
      maxAttempts: dunning.maxAttempts,
      attemptsMade: ladderAttempts,
      manualAttempts,
      nextAttemptNumber: scheduled ? ladderAttempts + 1 : null,
      nextAttemptAt: scheduled ? iso(charge.nextAttemptAt) : null,
      waitingForNewCard: charge.step === 'awaiting_card',
      givesUpAt: charge.dunningStartedAt && (charge.status === 'retrying' || charge.step === 'awaiting_card') ? dunning.deadline(charge.dunningStartedAt).toISOString() : null,
      technicalFailures: charge.technicalFailures,
      lastError: charge.lastErrorCode === null ? null : { code: charge.lastErrorCode, class: lastErrorClass },
      attempts: [...attempts]
        .sort((a, b) => a.number - b.number)
        .map((a) => ({ number: a.number, paymentId: a.providerPaymentId, status: a.status, manual: a.manual, errorCode: a.errorCode, class: attemptClass(a), createdAt: iso(a.attemptedAt) })),
    };
  }

  private async policyOf(subscriptionId: string) {
    const subscription = await this.subscriptions.get(subscriptionId);
    return this.dunningPolicies.policyFor(await this.plans.get(subscription.planId), subscription.id);
  }
}
