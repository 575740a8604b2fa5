import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { LeasedQueues } from '../work/leased-queues.service';
import { FencedWriteOptions, LeasedQueue } from '../work/leased-queue';
import type { WorkTail } from '../work/worker-pool';
import { Charge } from './charge.entity';

/** A charge this process holds: every write must quote the fence it was claimed with. */
export interface ClaimedCharge {
  charge: Charge;
  fence: number;
}

/**
 * Charges as jobs of the shared leased queue: a charge row is its own job, due at `next_attempt_at`
 * (business time) and not before `not_before` (real time, backoffs).
 */
@Injectable()
export class ChargeQueueService {
  private readonly queue: LeasedQueue<Charge>;

  constructor(
    private readonly clock: Clock,
    queues: LeasedQueues,
  ) {
    this.queue = queues.create<Charge>({
      name: 'charges',
      entity: Charge,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'caller',
      hasNotBefore: true,
    });
  }

  /** Claims up to `limit` charges due at business time `now` (or one given charge, when `onlyId` is set). */
  async claim(now: Date, limit: number, onlyId?: string): Promise<ClaimedCharge[]> {
    const claims = await this.queue.claim(limit, { dueAt: now, onlyId });
    return claims.map((c) => ({ charge: c.row, fence: c.fence }));
  }

  /**
   * Works every charge due at business time `now` on the engine's pool; answers how many were worked.
   * `prepare` sees each claimed batch before its charges are worked (to read what they need in one go).
   */
  drain(
    now: Date,
    work: (claim: ClaimedCharge) => Promise<void | WorkTail>,
    options: { concurrency: number; batchSize: number; stopping: () => boolean; prepare?: (batch: ClaimedCharge[]) => Promise<void> },
  ): Promise<number> {
    const claimed = new WeakMap<object, ClaimedCharge>();
    return this.queue.drain(
      async (limit) => {
        const claims = await this.queue.claim(limit, { dueAt: now });
        const batch = claims.map((c) => {
          const claim = { charge: c.row, fence: c.fence };
          claimed.set(c, claim);
          return claim;
        });
        if (batch.length > 0) await options.prepare?.(batch);
        return claims;
      },
      (c) => work(claimed.get(c) as ClaimedCharge),
      options,
    );
  }

  /**
   * Writes `changes` only while this process still holds the charge (the engine's fenced write; a refusal unwinds the
   * step, see LeasedQueue.lost). `notBeforeMs`: not claimed again before that long in real time.
   */
  async write(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, options: FencedWriteOptions = {}): Promise<void> {
    // Every time an answer shows comes from the billing clock, the update time too.
    await this.queue.write({ row: claim.charge, fence: claim.fence }, { updatedAt: this.clock.now(), ...changes }, options);
  }

  /** Ends this process's hold in the same write that records the step, so the next claim need not wait. */
  async release(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, options: Omit<FencedWriteOptions, 'release'> = {}): Promise<void> {
    await this.write(claim, changes, { ...options, release: true });
  }

  /**
   * The provider says `target`'s payment moved: the charge is due at once (business time `at`) unless a live process
   * holds it; the lease rule is the engine's (LeasedQueue.wake).
   */
  wake(target: { sql: string; params: unknown[] }, at: Date): Promise<'woken' | 'busy' | 'settled' | 'none'> {
    return this.queue.wake(target, at);
  }

  /** A statement of billing's own that quotes the fence changed nothing: the engine's rule for a lost lease. */
  lost(claim: ClaimedCharge): never {
    return this.queue.lost({ row: claim.charge, fence: claim.fence });
  }
}
