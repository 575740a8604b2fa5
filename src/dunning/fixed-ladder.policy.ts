import { parseDuration } from '../common/duration';
import { respectCap } from './attempt-cap';
import type { ChargeAttemptHistory } from './charge-attempt-history';
import { classifyDecline } from './decline-codes';
import type { DunningDecision, DunningPolicy } from './dunning-policy';

export interface FixedLadderSettings {
  retryDelays: readonly string[];
  finalAction: 'cancel' | 'unpaid';
  /** The card networks' cap on attempts per 30 days. */
  attemptCap: number;
  heldOut: boolean;
}

/**
 * The fixed ladder: after a soft decline the next attempt comes the ladder's next delay after the previous one; after a
 * hard decline collection waits for a new card until the whole ladder has passed; a declined last step ends dunning.
 */
export class FixedLadderPolicy implements DunningPolicy {
  readonly strategy = 'fixed' as const;
  /** The merchant chose these days: a retry keeps its day even when a new card is bound. */
  readonly retriesAtOnceOnNewCard = false;
  readonly heldOut: boolean;
  readonly finalAction: 'cancel' | 'unpaid';
  readonly retryDelays: readonly string[];
  readonly windowMs: number;
  readonly maxAttempts: number;
  private readonly delaysMs: number[];
  private readonly attemptCap: number;

  constructor(settings: FixedLadderSettings) {
    this.retryDelays = [...settings.retryDelays];
    this.delaysMs = this.retryDelays.map(parseDuration);
    this.windowMs = this.delaysMs.reduce((a, b) => a + b, 0);
    this.finalAction = settings.finalAction;
    this.heldOut = settings.heldOut;
    this.attemptCap = settings.attemptCap;
    this.maxAttempts = this.retryDelays.length + 1;
  }

  deadline(dunningStartedAt: Date): Date {
    return new Date(dunningStartedAt.getTime() + this.windowMs);
  }

  afterDecline(history: readonly ChargeAttemptHistory[], _zone: string, dunningStartedAt: Date): DunningDecision {
    const last = history[history.length - 1];
    if (classifyDecline(last.errorCode ?? 'unknown') === 'hard') return { kind: 'await_card', until: this.deadline(dunningStartedAt) };
    // Each delay counts from the previous attempt; the n-th decline is followed by the n-th delay.
    const declines = history.length;
    if (declines > this.delaysMs.length) return { kind: 'give_up' };
    return { kind: 'retry', at: new Date(last.attemptedAt.getTime() + this.delaysMs[declines - 1]) };
  }

  allowedAt(attempts: readonly ChargeAttemptHistory[], now: Date): Date {
    return this.capAllowsAt(attempts, now);
  }

  capAllowsAt(attempts: readonly ChargeAttemptHistory[], now: Date): Date {
    return respectCap(this.attemptCap, attempts.map((a) => a.attemptedAt), now);
  }
}
