import type { FactoryProvider } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import type { Claim, LeasedQueue } from '../work/leased-queue';
import { LeasedQueues } from '../work/leased-queues.service';
import { Payout } from './payout.entity';

/** The payouts' queue's name, for its loop (WorkRunnerService) as for its definition. */
export const PAYOUTS_QUEUE = 'payouts';

/** The payouts' queue of the work engine; inject it with `@Inject(PAYOUT_QUEUE)`. */
export const PAYOUT_QUEUE = Symbol('PAYOUT_QUEUE');

export type PayoutQueue = LeasedQueue<Payout>;

/** A payout this process holds: every write goes through the queue, which quotes the claim's fence. */
export type ClaimedPayout = Claim<Payout>;

/**
 * Payouts as jobs of the engine, defined once: a payout row is its own job, due at `next_attempt_at` and not before
 * `not_before`, both real time (payouts have no business calendar). No transaction is held across a provider call:
 * each write is one short statement that checks the fence, stamped with updatedAt from the billing clock (the API
 * shows it as business time).
 */
export const payoutQueueProvider: FactoryProvider<PayoutQueue> = {
  provide: PAYOUT_QUEUE,
  inject: [LeasedQueues, SystemClock, Clock],
  useFactory: (queues: LeasedQueues, clock: SystemClock, businessClock: Clock) =>
    queues.create<Payout>({
      name: PAYOUTS_QUEUE,
      entity: Payout,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'caller',
      hasNotBefore: true,
      dueNow: () => clock.now(),
      stamp: () => ({ updatedAt: businessClock.now() }),
    }),
};
