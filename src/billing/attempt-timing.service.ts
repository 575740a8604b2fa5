import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { PlansService } from '../plans/plans.service';
import type { ChargeAttempt } from './charge-attempt.entity';
import { ChargeContextService } from './charge-context.service';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import type { ChargeOutcome } from './charge-settlement.service';
import type { Charge } from './charge.entity';
import { respectAttemptCap } from './dunning-policy';
import { DunningRulesService } from './dunning-rules.service';
import type { LadderPosition } from './ladder-position';

/**
 * Whether a claimed charge's attempt may start now under its plan's dunning (smart's allowed local hours, the card
 * network's cap), and the write that leaves it for later when not: released, due at the earliest allowed time on the
 * billing clock.
 */
@Injectable()
export class AttemptTimingService {
  constructor(
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly contexts: ChargeContextService,
    private readonly plans: PlansService,
    private readonly clock: Clock,
    private readonly dunningRules: DunningRulesService,
  ) {}

  /** A period's first attempt (its invoice not made yet): the outcome when it waits, undefined to go on now. */
  async holdFirstAttempt(claim: ClaimedCharge): Promise<ChargeOutcome | undefined> {
    const { plan, subscription } = await this.contexts.of(claim);
    const now = this.clock.now();
    const allowedAt = this.dunningRules.allowedAt(this.plans.effectiveDunning(plan), [], now, subscription.timezone, (_times, at) => at);
    if (allowedAt <= now) return undefined;
    await this.queue.write(claim, { nextAttemptAt: allowedAt }, { release: true });
    return 'pending';
  }

  /**
   * A further attempt after `attempts`: the outcome when it is not made now (it waits, or an operator's retry the cap
   * refuses goes back where its ladder stood), undefined to make it now.
   */
  async holdNextAttempt(claim: ClaimedCharge, attempts: ChargeAttempt[]): Promise<ChargeOutcome | undefined> {
    const { plan, subscription } = await this.contexts.of(claim);
    const dunning = this.plans.effectiveDunning(plan);
    const now = this.clock.now();
    const manual = claim.row.pendingManualRetry;
    // An operator's retry keeps the card network's cap, not the ladder's hours: it is made now or not at all.
    if (manual) {
      if (this.dunningRules.capAllowsAt(dunning, attempts, now, respectAttemptCap) <= now) return undefined;
      await this.queue.write(claim, backOnLadder(manual), { release: true });
      return 'skipped';
    }
    const allowedAt = this.dunningRules.allowedAt(dunning, attempts, now, subscription.timezone, respectAttemptCap);
    if (allowedAt <= now) return undefined;
    await this.queue.write(claim, { nextAttemptAt: allowedAt, status: 'retrying' }, { release: true });
    return 'pending';
  }
}

/** A manual retry not made: the charge goes back where its ladder stood. */
function backOnLadder(position: LadderPosition): Partial<Charge> {
  return {
    status: position.status,
    step: position.step,
    nextAttemptAt: position.nextAttemptAt === null ? null : new Date(position.nextAttemptAt),
    declinedBindingId: position.declinedBindingId,
    pendingManualRetry: null,
  };
}
