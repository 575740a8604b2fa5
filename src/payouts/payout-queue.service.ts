import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { LeasedQueues } from '../work/leased-queues.service';
import { FencedWriteOptions, LeasedQueue } from '../work/leased-queue';
import { Payout } from './payout.entity';

/** A payout this process holds: every write must quote the fence it was claimed with. */
export interface ClaimedPayout {
  payout: Payout;
  fence: number;
}

/**
 * Payouts as jobs of the shared leased queue: a payout row is its own job, due at `next_attempt_at` and not
 * before `not_before` (both real time: payouts have no business calendar). No transaction is held across a
 * provider call: each write is one short statement that checks the fence.
 */
@Injectable()
export class PayoutQueueService {
  private readonly queue: LeasedQueue<Payout>;

  constructor(
    queues: LeasedQueues,
    // updatedAt is shown by the API, so it is business time; the queue itself runs on real time.
    private readonly businessClock: Clock,
  ) {
    this.queue = queues.create<Payout>({
      name: 'payouts',
      entity: Payout,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'caller',
      hasNotBefore: true,
    });
  }

  /** Claims up to `limit` payouts due at `now`, oldest due first. */
  async claim(now: Date, limit: number): Promise<ClaimedPayout[]> {
    return (await this.queue.claim(limit, { dueAt: now })).map((c) => ({ payout: c.row, fence: c.fence }));
  }

  /**
   * Writes `changes` (stamped with updatedAt) only while this process still holds the payout: the engine's fenced
   * write, whose refusal unwinds the step (see LeasedQueue.lost). The module's one way to write a claimed payout.
   */
  async write(claim: ClaimedPayout, changes: QueryDeepPartialEntity<Payout>, options: FencedWriteOptions = {}): Promise<void> {
    await this.queue.write({ row: claim.payout, fence: claim.fence }, { ...changes, updatedAt: this.businessClock.now() }, options);
  }

  /** The provider says `target`'s withdrawal moved: due at once (`now`, real time) unless a live process holds it. */
  wake(target: { sql: string; params: unknown[] }, now: Date): Promise<'woken' | 'busy' | 'settled' | 'none'> {
    return this.queue.wake(target, now);
  }

  /** A statement of the module's own that quotes the fence changed nothing: the engine's rule for a lost lease. */
  lost(claim: ClaimedPayout): never {
    return this.queue.lost({ row: claim.payout, fence: claim.fence });
  }

  /** Works every payout due at `now` on the engine's pool; answers how many steps were worked. */
  drain(now: Date, work: (claim: ClaimedPayout) => Promise<void>, options: { concurrency: number; batchSize: number; stopping: () => boolean }): Promise<number> {
    return this.queue.drain(
      (limit) => this.queue.claim(limit, { dueAt: now }),
      (c) => work({ payout: c.row, fence: c.fence }),
      options,
    );
  }
}
