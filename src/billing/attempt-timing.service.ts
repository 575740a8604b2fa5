import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { respectCap } from '../dunning/attempt-cap';
import type { ChargeAttempt } from './charge-attempt.entity';
import { ChargeContextService } from './charge-context.service';
import { CHARGE_QUEUE, ChargeQueue, ClaimedCharge } from './charge-queue';
import type { ChargeOutcome } from './charge-settlement.service';
import { Charge, ChargeWait } from './charge.entity';
import { classifyDecline } from '../dunning/decline-codes';
import type { LadderPosition } from '../dunning/ladder-position';

const WAITING: Record<ChargeWait, ChargeOutcome> = { allowed_hours: 'waiting_allowed_hours', attempt_cap: 'waiting_attempt_cap' };

/**
 * Whether a claimed charge's attempt may start now under its plan's dunning (smart's allowed local hours, the card
 * network's cap), and the write that leaves it for later when not: released, due at the earliest allowed time on the
 * billing clock, with the reason in `waitingFor`. No provider call is made for it, so a pass counts it as waiting,
 * never as an outcome it could wait for.
 */
@Injectable()
export class AttemptTimingService {
  private readonly logger = new Logger(AttemptTimingService.name);

  constructor(
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly contexts: ChargeContextService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** A period's first attempt (its invoice not made yet): the outcome when it waits, undefined to go on now. */
  async holdFirstAttempt(claim: ClaimedCharge): Promise<ChargeOutcome | undefined> {
    const { dunning, subscription } = await this.contexts.of(claim);
    const now = this.clock.now();
    const allowedAt = dunning.allowedAt([], now, subscription.timezone);
    if (allowedAt <= now) return undefined;
    return this.wait(claim, { nextAttemptAt: allowedAt, waitingFor: 'allowed_hours' }, now, subscription.timezone);
  }

  /**
   * A further attempt after `attempts`: the outcome when it is not made now (it waits, or an operator's retry the cap
   * refuses goes back where its ladder stood), undefined to make it now.
   */
  async holdNextAttempt(claim: ClaimedCharge, attempts: ChargeAttempt[]): Promise<ChargeOutcome | undefined> {
    const { dunning, subscription } = await this.contexts.of(claim);
    const now = this.clock.now();
    const manual = claim.row.pendingManualRetry;
    const capAllowsAt = dunning.capAllowsAt(attempts, now);
    // An operator's retry keeps the card network's cap, not the ladder's hours: it is made now or not at all.
    if (manual) {
      if (capAllowsAt <= now) return undefined;
      await this.queue.write(claim, backOnLadder(manual), { release: true });
      return 'skipped';
    }
    // A card bound since a hard decline (the wake clears the declined card): the customer is there, often on a recovery
    // link, so the attempt is made now at any hour; the card network's cap still holds. A soft decline's retry keeps the hours.
    const lastDecline = attempts.filter((a) => a.status === 'declined').sort((a, b) => b.number - a.number)[0];
    const newCardAfterHardDecline = claim.row.declinedBindingId === null && classifyDecline(lastDecline?.errorCode ?? '') === 'hard';
    const allowedAt = newCardAfterHardDecline ? capAllowsAt : dunning.allowedAt(attempts, now, subscription.timezone);
    if (allowedAt <= now) return undefined;
    return this.wait(claim, { nextAttemptAt: allowedAt, status: 'retrying', waitingFor: capAllowsAt > now ? 'attempt_cap' : 'allowed_hours' }, now, subscription.timezone);
  }

  /** Whether the card networks' cap lets an operator retry a one-off (which has no dunning) now. */
  oneOffCapAllows(attempts: ChargeAttempt[], now: Date): boolean {
    return respectCap(this.config.maxAttemptsPerCard30d, attempts.map((a) => a.attemptedAt), now) <= now;
  }

  private async wait(claim: ClaimedCharge, changes: Partial<Charge> & { nextAttemptAt: Date; waitingFor: ChargeWait }, now: Date, timezone: string): Promise<ChargeOutcome> {
    await this.queue.write(claim, changes, { release: true });
    this.logger.debug(
      { chargeId: claim.row.id, at: now.toISOString(), until: changes.nextAttemptAt.toISOString(), timezone, waitingFor: changes.waitingFor },
      'Charge attempt waits for a dunning rule',
    );
    return WAITING[changes.waitingFor];
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
