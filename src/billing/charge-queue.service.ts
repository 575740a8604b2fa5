import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning } from './billing-tuning';
import { Charge } from './charge.entity';
import { LeaseLostError } from '../common/lease-lost.error';

/** A charge this worker holds: every write must quote the fence it was claimed with. */
export interface ClaimedCharge {
  charge: Charge;
  fence: number;
}

/**
 * Work queue of charges in PostgreSQL. A claim takes a lease (real database time) and bumps the fence;
 * a worker that dies leaves a lease that lapses, and the next claim resumes from the stored step.
 */
@Injectable()
export class ChargeQueueService {
  /** Names this process in lease_owner, for operators reading the table. */
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tuning: BillingTuning,
    private readonly metrics: BillingMetricsService,
  ) {}

  /** Claims up to `limit` charges due at business time `now` (or one given charge, when `onlyId` is set). */
  async claim(now: Date, limit: number, onlyId?: string): Promise<ClaimedCharge[]> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows]: [(Record<string, unknown> & { previous_owner: string | null })[], number] = await this.dataSource.query(
      `WITH picked AS (
         SELECT id, lease_owner AS previous_owner FROM charges
          WHERE next_attempt_at <= $1
            AND (not_before IS NULL OR not_before <= now())
            AND (lease_until IS NULL OR lease_until < now())
            AND ($4::uuid IS NULL OR id = $4::uuid)
          ORDER BY next_attempt_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE charges c
          SET lease_owner = $3, lease_until = now() + make_interval(secs => $5::double precision / 1000), fence = c.fence + 1
         FROM picked
        WHERE c.id = picked.id
       RETURNING c.id, c.fence, picked.previous_owner`,
      [now, limit, this.workerId, onlyId ?? null, this.tuning.leaseMs],
    );
    if (rows.length === 0) return [];
    const takeovers = rows.filter((r) => r.previous_owner !== null).length;
    if (takeovers > 0) this.metrics.leaseTakeovers.inc(takeovers);
    const charges = await this.dataSource.getRepository(Charge).findBy({ id: In(rows.map((r) => r.id as string)) });
    const fences = new Map(rows.map((r) => [r.id as string, Number(r.fence)]));
    return charges.map((charge) => ({ charge, fence: fences.get(charge.id) as number }));
  }

  /** Writes `changes` only while this worker still holds the charge; throws LeaseLostError otherwise. */
  async write(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, em: EntityManager = this.dataSource.manager): Promise<void> {
    const result = await em.update(Charge, { id: claim.charge.id, fence: claim.fence }, changes);
    if (!result.affected) {
      this.metrics.leaseLost.inc();
      throw new LeaseLostError('charge', claim.charge.id);
    }
    Object.assign(claim.charge, changes);
  }

  /** Lets the charge go, to be picked up at `nextAttemptAt` (business time) and not before `notBeforeMs` from now (real time). */
  async release(claim: ClaimedCharge, changes: QueryDeepPartialEntity<Charge>, em?: EntityManager): Promise<void> {
    await this.write(claim, { ...changes, leaseOwner: null, leaseUntil: null }, em);
  }
}
