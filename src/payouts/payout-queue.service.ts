import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Payout } from './payout.entity';
import { LeaseLostError } from '../common/lease-lost.error';
import { PayoutMetricsService } from './payout-metrics.service';
import { PayoutTuning } from './payout-tuning';
import { returnedRows } from './returned-rows';

/** Due, not backing off, not leased (or lease lapsed); SKIP LOCKED lets replicas claim side by side. */
const CLAIM_SQL = `
  WITH picked AS (
    SELECT id, lease_owner AS previous_owner FROM payouts
     WHERE next_attempt_at <= $1
       AND (not_before IS NULL OR not_before <= now())
       AND (lease_until IS NULL OR lease_until < now())
     ORDER BY next_attempt_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED)
  UPDATE payouts p
     SET lease_owner = $3, lease_until = now() + make_interval(secs => $4::double precision / 1000), fence = p.fence + 1
    FROM picked
   WHERE p.id = picked.id
  RETURNING p.id, p.fence, picked.previous_owner`;

/** A payout this worker holds: every write must quote the fence it was claimed with. */
export interface ClaimedPayout {
  payout: Payout;
  fence: number;
}

/** Clears the lease in the same write that ends a step, so the next claim does not wait for it to lapse. */
const RELEASE: QueryDeepPartialEntity<Payout> = { leaseOwner: null, leaseUntil: null };

/**
 * Work queue of payouts in PostgreSQL. A claim takes a lease (real database time) and bumps the fence; a worker
 * that dies leaves a lease that lapses, and the next claim resumes from the stored status. No transaction is held
 * across a provider call: each write is one short statement that checks the fence.
 */
@Injectable()
export class PayoutQueueService {
  /** Names this process in lease_owner, for operators reading the table. */
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tuning: PayoutTuning,
    private readonly metrics: PayoutMetricsService,
  ) {}

  /** Claims up to `limit` payouts due at business time `now`, oldest due first. */
  async claim(now: Date, limit: number): Promise<ClaimedPayout[]> {
    const rows = returnedRows<{ id: string; fence: string; previous_owner: string | null }>(
      await this.dataSource.query(CLAIM_SQL, [now, limit, this.workerId, this.tuning.leaseMs]),
    );
    if (rows.length === 0) return [];
    // A released lease is cleared, so an owner still set means its worker stopped (crash, kill) mid-step.
    const takeovers = rows.filter((r) => r.previous_owner !== null).length;
    if (takeovers > 0) this.metrics.leaseTakeovers.inc(takeovers);
    const payouts = await this.dataSource.getRepository(Payout).findBy({ id: In(rows.map((r) => r.id)) });
    const fences = new Map(rows.map((r) => [r.id, Number(r.fence)]));
    return payouts.map((payout) => ({ payout, fence: fences.get(payout.id) as number }));
  }

  /** Writes `changes` only while this worker still holds the payout; throws LeaseLostError otherwise. */
  async write(claim: ClaimedPayout, changes: QueryDeepPartialEntity<Payout>, release = false): Promise<void> {
    const result = await this.dataSource
      .getRepository(Payout)
      .update({ id: claim.payout.id, fence: claim.fence }, release ? { ...changes, ...RELEASE } : changes);
    if (!result.affected) {
      this.metrics.leaseLost.inc();
      throw new LeaseLostError('payout', claim.payout.id);
    }
    for (const [key, value] of Object.entries(changes)) {
      // Raw SQL expressions (functions) are not values; the in-memory copy keeps only plain ones.
      if (typeof value !== 'function') (claim.payout as unknown as Record<string, unknown>)[key] = value;
    }
  }

  /** Gives a claimed payout back untouched (shutdown before its step started), so another worker need not wait for the lease. */
  async release(claim: ClaimedPayout): Promise<void> {
    await this.write(claim, {}, true);
  }

  /** Milliseconds until the earliest open payout is due (0 when one is due now), or null when none is open. */
  async nextDueInMs(now: Date): Promise<number | null> {
    const rows: { wait_ms: number | null }[] = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(greatest(next_attempt_at - $1::timestamptz, coalesce(not_before - now(), interval '0'), coalesce(lease_until - now(), interval '0')))) * 1000)::float8 AS wait_ms
         FROM payouts WHERE next_attempt_at IS NOT NULL`,
      [now],
    );
    const wait = rows[0]?.wait_ms;
    return wait === null || wait === undefined ? null : Math.max(0, wait);
  }
}
