import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { inHoldout } from './dunning-holdout';
import type { DunningPolicy } from './dunning-policy';
import { DunningRulesService } from './dunning-rules.service';
import { FixedLadderPolicy } from './fixed-ladder.policy';
import { SmartPolicy } from './smart.policy';

/**
 * The one place that knows the strategies: it answers the policy a subscription's charges are dunned by (the plan's
 * own dunning, else the environment's; a smart subscription in the holdout gets the environment's fixed ladder).
 */
@Injectable()
export class DunningService {
  constructor(
    private readonly plans: PlansService,
    private readonly rules: DunningRulesService,
    private readonly config: AppConfig,
  ) {}

  policyFor(plan: Plan, subscriptionId: string): DunningPolicy {
    const effective = this.plans.effectiveDunning(plan);
    const heldOut = effective.strategy === 'smart' && inHoldout(subscriptionId, this.config.dunningHoldoutPercent);
    if (effective.strategy === 'smart' && !heldOut) return new SmartPolicy(this.rules.rules, effective.windowMs, effective.finalAction);
    return new FixedLadderPolicy({
      retryDelays: heldOut ? this.config.dunningRetryDelays : effective.retryDelays,
      finalAction: effective.finalAction,
      attemptCap: this.config.maxAttemptsPerCard30d,
      heldOut,
    });
  }
}
