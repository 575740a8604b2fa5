import type { FactoryProvider } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import type { Claim, LeasedQueue } from '../work/leased-queue';
import { LeasedQueues } from '../work/leased-queues.service';
import { Refund } from './refund.entity';

/** The engine's loop that works card refunds (WorkRunnerService). */
export const REFUNDS_QUEUE = 'refunds';

/** The refunds' queue of the work engine; inject it with `@Inject(REFUND_QUEUE)`. */
export const REFUND_QUEUE = Symbol('REFUND_QUEUE');

export type RefundQueue = LeasedQueue<Refund>;

/** A refund this process holds: every write goes through the queue, which quotes the claim's fence. */
export type ClaimedRefund = Claim<Refund>;

/**
 * Card refunds as jobs of the engine: a refund row is its own job, due at `next_attempt_at` and not before
 * `not_before`, both real time (refunds have no business calendar), stamped with updatedAt from the billing clock (the
 * API shows it as business time).
 */
export const refundQueueProvider: FactoryProvider<RefundQueue> = {
  provide: REFUND_QUEUE,
  inject: [LeasedQueues, SystemClock, Clock],
  useFactory: (queues: LeasedQueues, clock: SystemClock, businessClock: Clock) =>
    queues.create<Refund>({
      name: REFUNDS_QUEUE,
      entity: Refund,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'caller',
      hasNotBefore: true,
      dueNow: () => clock.now(),
      stamp: () => ({ updatedAt: businessClock.now() }),
    }),
};
