import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { LeaseLostError } from '../common/lease-lost.error';
import { LeasedQueue } from '../work/leased-queue';
import { WorkMetricsService } from '../work/work-metrics.service';
import { WorkerRegistryService } from '../work/worker-registry.service';
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
    @InjectDataSource() private readonly dataSource: DataSource,
    registry: WorkerRegistryService,
    workMetrics: WorkMetricsService,
  ) {
    this.queue = new LeasedQueue(dataSource, registry, workMetrics, {
      name: 'charges',
      entity: Charge,
      dueColumn: 'next_attempt_at',
      dueClock: 'business',
      hasNotBefore: true,
    });
  }

  /** Claims up to `limit` charges due at business time `now` (or one given charge, when `onlyId` is set). */
  async claim(now: Date, limit: number, onlyId?: string): Promise<ClaimedCharge[]> {
    const claims = await this.queue.claim(limit, { dueAt: now, onlyId });
    return claims.map((c) => ({ charge: c.row, fence: c.fence }));
  }

  /** Works every charge due at business time `now` on the engine's pool; answers how many were worked. */
  drain(now: Date, work: (claim: ClaimedCharge) => Promise<void>, options: { concurrency: number; batchSize: number; stopping: () => boolean }): Promise<number> {
    return this.queue.drain(
      (limit) => this.queue.claim(limit, { dueAt: now }),
      (c) => work({ charge: c.row, fence: c.fence }),
      options,
    );
  }

  /** Writes `changes` only while this process still holds the charge; throws LeaseLostError otherwise. */
  async write(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, em: EntityManager = this.dataSource.manager): Promise<void> {
    const result = await em.update(Charge, { id: claim.charge.id, fence: claim.fence }, changes);
    if (!result.affected) {
      this.leaseLost();
      throw new LeaseLostError('charge', claim.charge.id);
    }
    Object.assign(claim.charge, changes);
  }

  /** Ends this process's hold in the same write that records the step, so the next claim need not wait. */
  async release(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, em?: EntityManager): Promise<void> {
    await this.write(claim, { ...changes, leaseOwner: null }, em);
  }

  leaseLost(): void {
    this.queue.leaseLost();
  }
}
