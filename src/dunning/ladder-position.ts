import type { ChargeStatus, ChargeStep } from '../billing/charge.entity';
import type { DeclineKind } from './decline-codes';

/**
 * Where a charge stood on its dunning ladder when an operator asked for a manual retry, kept (as JSON) with the
 * retry until its attempt is made and then with that attempt: a declined manual attempt puts the charge back here,
 * so it neither spends a step of the ladder nor moves the next scheduled attempt.
 */
export interface LadderPosition {
  status: ChargeStatus;
  step: ChargeStep;
  /** ISO time of the ladder's next attempt (or of the end of the wait for a new card); null once the ladder is over. */
  nextAttemptAt: string | null;
  declinedBindingId: string | null;
}

/** A charge's collection state, as the settling write sets it. */
export interface CollectionState {
  status: ChargeStatus;
  step: ChargeStep;
  nextAttemptAt: Date | null;
  declinedBindingId: string | null;
}

/**
 * The charge's state after a manual attempt outside the ladder was declined. A soft decline, or any decline once the
 * ladder is over, leaves the ladder where it stood. A hard decline means the card in use will not pay: the charge
 * waits for a new card as after any hard decline, until the end of dunning, and never gives up before the ladder's
 * own next step would have.
 */
export function stateAfterManualDecline(position: LadderPosition, kind: DeclineKind, dunningEnd: Date, activeBindingId: string | null): CollectionState {
  const ladderNext = position.nextAttemptAt === null ? null : new Date(position.nextAttemptAt);
  const ladderOver = position.step === 'done';
  if (kind === 'soft' || ladderOver) {
    return { status: position.status, step: position.step, nextAttemptAt: ladderNext, declinedBindingId: position.declinedBindingId };
  }
  const waitUntil = ladderNext && ladderNext > dunningEnd ? ladderNext : dunningEnd;
  return { status: 'failed', step: 'awaiting_card', nextAttemptAt: waitUntil, declinedBindingId: activeBindingId };
}
