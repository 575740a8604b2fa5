import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { EffectiveDunning } from '../plans/plans.service';
import { PastAttempt, SmartDunningRules, attemptsOnCurrentCard, defaultSmartRules, earliestAllowedAttempt, respectCap } from './smart-dunning';

/** The smart strategy's rules as configured (BILLING_PAYDAYS, BILLING_MAX_ATTEMPTS_PER_CARD_30D), read once at boot. */
@Injectable()
export class DunningRulesService {
  readonly rules: SmartDunningRules;

  constructor(config: AppConfig) {
    this.rules = defaultSmartRules([...config.billingPaydays], config.maxAttemptsPerCard30d);
  }

  /**
   * When a new attempt of a charge may start at the earliest under `dunning`: smart keeps the per-card cap (attempts on
   * the card in use) and the allowed local hours; fixed keeps the cap over the charge's attempts, as it always did.
   */
  allowedAt(dunning: EffectiveDunning, attempts: readonly PastAttempt[], now: Date, zone: string, fixedCap: (times: Date[], at: Date) => Date): Date {
    if (dunning.strategy !== 'smart') return fixedCap(attempts.map((a) => a.attemptedAt), now);
    const onCard = attemptsOnCurrentCard(this.rules, attempts);
    return earliestAllowedAttempt(this.rules, onCard.map((a) => a.attemptedAt), now, zone);
  }

  /** Like allowedAt, but for an operator's manual retry: only the card network's cap applies, not the allowed hours. */
  capAllowsAt(dunning: EffectiveDunning, attempts: readonly PastAttempt[], now: Date, fixedCap: (times: Date[], at: Date) => Date): Date {
    if (dunning.strategy !== 'smart') return fixedCap(attempts.map((a) => a.attemptedAt), now);
    return respectCap(this.rules, attemptsOnCurrentCard(this.rules, attempts).map((a) => a.attemptedAt), now);
  }
}
