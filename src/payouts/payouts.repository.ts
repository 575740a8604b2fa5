import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { hotQuery } from '../database/prepared-statements';
import { followUpCtes, SqlFragment, SqlParams } from '../database/sql-statement';
import { Page, paginate } from '../common/http/pagination';
import { ListPayoutsQueryDto } from './list-payouts-query.dto';
import { Payout } from './payout.entity';

/** Rows per INSERT statement: ~10 parameters each keeps a statement far below PostgreSQL's 65535. */
const INSERT_CHUNK = 1_000;

/** The withdrawals at the provider that are not final yet. */
export interface PendingWithdrawals {
  pending: number;
  oldestSubmittedAt: Date | null;
}

/** Owner of the `payouts` table: every statement on it, the leased queue's included, starts here. */
@Injectable()
export class PayoutsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one database transaction; pass its EntityManager to the methods called inside. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(row: QueryDeepPartialEntity<Payout>, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.getRepository(Payout).insert(row);
  }

  /** Many rows in a few multi-row statements, without reading anything back. */
  async insertMany(rows: QueryDeepPartialEntity<Payout>[], em: EntityManager = this.dataSource.manager): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await em.createQueryBuilder().insert().into(Payout).values(rows.slice(start, start + INSERT_CHUNK)).updateEntity(false).execute();
    }
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<Payout | null> {
    return em.getRepository(Payout).findOneBy({ id });
  }

  /** A page of payouts, newest first, filtered by status and batch when given. */
  list(query: ListPayoutsQueryDto): Promise<Page<Payout>> {
    const builder = this.dataSource.getRepository(Payout).createQueryBuilder('payout');
    if (query.status) builder.andWhere('payout.status = :status', { status: query.status });
    if (query.batchId) builder.andWhere('payout.batchId = :batchId', { batchId: query.batchId });
    if (query.reference) builder.andWhere('payout.reference = :reference', { reference: query.reference });
    return paginate(builder, query);
  }

  /** The payouts that already carry any of these references. */
  findByReferences(references: string[]): Promise<Payout[]> {
    if (references.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(Payout).findBy({ reference: In(references) });
  }

  /** How many payouts of the batch are in each status (statuses with none are absent). */
  countByStatusInBatch(batchId: string): Promise<{ status: string; count: number }[]> {
    return this.dataSource.query('SELECT status, count(*)::int AS count FROM payouts WHERE batch_id = $1 GROUP BY status', [batchId]);
  }

  /** How many payouts of each of these batches are in each status (statuses with none are absent). */
  countByStatusInBatches(batchIds: string[]): Promise<{ batchId: string; status: string; count: number }[]> {
    if (batchIds.length === 0) return Promise.resolve([]);
    return this.dataSource.query(
      'SELECT batch_id AS "batchId", status, count(*)::int AS count FROM payouts WHERE batch_id = ANY($1::uuid[]) GROUP BY batch_id, status',
      [batchIds],
    );
  }

  /**
   * A payout's final state, released, with `followUps` (CTEs over `p`, the updated row, each binding its own
   * parameters: the merchant event) in one statement, only under `fence`. Answers whether it was written.
   */
  async finishFenced(
    id: string,
    fence: number,
    final: Pick<Payout, 'status' | 'providerWithdrawalId' | 'submittedAt' | 'failureCode' | 'completedAt' | 'updatedAt'>,
    followUps: SqlFragment[],
  ): Promise<boolean> {
    const p = new SqlParams();
    const [idParam, fenceParam, status, withdrawal, submitted, failure, at] = [id, fence, final.status, final.providerWithdrawalId, final.submittedAt, final.failureCode, final.updatedAt].map((v) =>
      p.bind(v),
    );
    const sql = `WITH p AS (UPDATE payouts SET status = ${status}, provider_withdrawal_id = ${withdrawal}, submitted_at = ${submitted}, failure_code = ${failure}, completed_at = ${at}, updated_at = ${at},
                         next_attempt_at = NULL, not_before = NULL, lease_owner = NULL
                   WHERE id = ${idParam} AND fence = ${fenceParam} RETURNING id)${followUpCtes(p, followUps)}
       SELECT 1 FROM p`;
    const { rows } = await hotQuery(this.dataSource, 'payouts.finish', sql, p.values);
    return rows.length > 0;
  }


  /** The payout of a provider withdrawal, and whether it waits for its outcome (see LeasedQueue.wake). */
  ofWithdrawal(providerWithdrawalId: string): { sql: string; params: unknown[] } {
    return { sql: `SELECT id, status = 'processing' AS waiting FROM payouts WHERE provider_withdrawal_id = $1`, params: [providerWithdrawalId] };
  }

  /** Pending payouts waiting for this destination become due at `now` (none is pushed later); `shownNow` becomes their updatedAt. */


  async makeDueForDestination(destinationId: string, now: Date, shownNow: Date, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `UPDATE payouts SET next_attempt_at = $2, updated_at = $3 WHERE destination_id = $1 AND status = 'pending' AND next_attempt_at > $2`,
      [destinationId, now, shownNow],
    );
  }

  async pendingWithdrawals(): Promise<PendingWithdrawals> {
    // The partial work index holds only open payouts, so this stays cheap however many are final.
    const rows: { pending: number; oldest: Date | null }[] = await this.dataSource.query(
      `SELECT count(*)::int AS pending, min(submitted_at) AS oldest FROM payouts WHERE next_attempt_at IS NOT NULL AND status = 'processing'`,
    );
    const row = rows[0];
    return { pending: row?.pending ?? 0, oldestSubmittedAt: row?.oldest ? new Date(row.oldest) : null };
  }
}
