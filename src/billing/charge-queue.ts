import type { FactoryProvider } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import type { Claim, LeasedQueue } from '../work/leased-queue';
import { LeasedQueues } from '../work/leased-queues.service';
import { Charge } from './charge.entity';

/** The charges' queue's name, for its loop (WorkRunnerService) as for its definition. */
export const CHARGES_QUEUE = 'charges';

/** The charges' queue of the work engine; inject it with `@Inject(CHARGE_QUEUE)`. */
export const CHARGE_QUEUE = Symbol('CHARGE_QUEUE');

export type ChargeQueue = LeasedQueue<Charge>;

/** A charge this process holds: every write goes through the queue, which quotes the claim's fence. */
export type ClaimedCharge = Claim<Charge>;

/**
 * Charges as jobs of the engine, defined once: a charge row is its own job, due at `next_attempt_at` (business time,
 * the billing clock, which may be the test clock) and not before `not_before` (real time: backoffs and polls). Every
 * write is stamped with the billing clock's time, like every time an answer shows, and ends a dunning rule's wait.
 */
export const chargeQueueProvider: FactoryProvider<ChargeQueue> = {
  provide: CHARGE_QUEUE,
  inject: [LeasedQueues, Clock],
  useFactory: (queues: LeasedQueues, clock: Clock) =>
    queues.create<Charge>({
      name: CHARGES_QUEUE,
      entity: Charge,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'caller',
      hasNotBefore: true,
      dueNow: () => clock.now(),
      // A dunning rule's wait ends with the charge's next write, unless that write sets it again.
      stamp: () => ({ updatedAt: clock.now(), waitingFor: null }),
    }),
};
