import { respectCap } from './attempt-cap';
import type { ChargeAttemptHistory } from './charge-attempt-history';
import type { DunningDecision, DunningPolicy } from './dunning-policy';
import { SmartDunningRules, attemptsOnCurrentCard, decideAfterDecline, earliestAllowedAttempt } from './smart-dunning';

/**
 * Smart dunning: each retry timed by the decline's class (paydays, spaced days, short backoffs) inside the allowed
 * local hours, the per-card cap counted on the card in use, until `maxDays` after the first decline.
 */
export class SmartPolicy implements DunningPolicy {
  readonly strategy = 'smart' as const;
  /** A new card owes nothing to the old one's timing (Recurly and Braintree retry at once on a card change). */
  readonly retriesAtOnceOnNewCard = true;
  readonly heldOut = false;
  readonly retryDelays: readonly string[] = [];
  readonly maxAttempts: number;

  constructor(
    private readonly rules: SmartDunningRules,
    readonly windowMs: number,
    readonly finalAction: 'cancel' | 'unpaid',
  ) {
    this.maxAttempts = rules.maxAttemptsPer30Days;
  }

  deadline(dunningStartedAt: Date): Date {
    return new Date(dunningStartedAt.getTime() + this.windowMs);
  }

  afterDecline(history: readonly ChargeAttemptHistory[], zone: string, dunningStartedAt: Date): DunningDecision {
    const deadline = this.deadline(dunningStartedAt);
    const decision = decideAfterDecline(this.rules, attemptsOnCurrentCard(this.rules, history, zone, deadline), zone, deadline);
    if (decision.kind === 'retry') return { kind: 'retry', at: decision.at };
    // A hard decline, refusals past their budget, or no payday left in reach: a new card is the way until the deadline.
    if (decision.kind === 'await_card') return { kind: 'await_card', until: deadline };
    return { kind: 'give_up' };
  }

  allowedAt(attempts: readonly ChargeAttemptHistory[], now: Date, zone: string): Date {
    const onCard = attemptsOnCurrentCard(this.rules, attempts);
    return earliestAllowedAttempt(this.rules, onCard.map((a) => a.attemptedAt), now, zone);
  }

  capAllowsAt(attempts: readonly ChargeAttemptHistory[], now: Date): Date {
    return respectCap(this.rules.maxAttemptsPer30Days, attemptsOnCurrentCard(this.rules, attempts).map((a) => a.attemptedAt), now);
  }
}
