import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Page, paginate } from '../common/http/pagination';
import { ListRefundsQueryDto } from './list-refunds-query.dto';
import { Refund } from './refund.entity';

/** What a charge's refunds add up to, failed ones left out (a pending refund holds its amount until it fails). */
export interface RefundTotals {
  /** How many refunds the charge has, whatever their status: the next one's number is this + 1. */
  count: number;
  /** How many of them go to the card: the next card refund's identity counts from this. */
  cardCount: number;
  /** Pending and succeeded refunds to the card. */
  card: number;
  /** Pending and succeeded refunds, to the card and to the balance. */
  all: number;
}

/** Owner of the `refunds` table: every statement on it, the leased queue's included, starts here. */
@Injectable()
export class RefundsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one short database transaction (never across a provider call). */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Serializes the refunds of one charge until the caller's transaction ends: their sum is checked and written under it. */
  async lockCharge(em: EntityManager, chargeId: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 16))`, [`refunds:${chargeId}`]);
  }

  async totalsOf(em: EntityManager, chargeId: string): Promise<RefundTotals> {
    const [row]: { count: number; card_count: number; card: string; all: string }[] = await em.query(
      `SELECT count(*)::int AS count, count(*) FILTER (WHERE destination = 'card')::int AS card_count,
              coalesce(sum(amount) FILTER (WHERE status <> 'failed' AND destination = 'card'), 0)::bigint AS card,
              coalesce(sum(amount) FILTER (WHERE status <> 'failed'), 0)::bigint AS all
         FROM refunds WHERE charge_id = $1`,
      [chargeId],
    );
    return { count: row.count, cardCount: row.card_count, card: Number(row.card), all: Number(row.all) };
  }

  async insert(em: EntityManager, row: QueryDeepPartialEntity<Refund>): Promise<void> {
    await em.getRepository(Refund).insert(row);
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<Refund | null> {
    return em.getRepository(Refund).findOneBy({ id });
  }

  findByReference(reference: string): Promise<Refund | null> {
    return this.dataSource.getRepository(Refund).findOneBy({ reference });
  }

  /** A page of refunds, newest first, filtered by charge, status and reference when given. */
  list(query: ListRefundsQueryDto): Promise<Page<Refund>> {
    const builder = this.dataSource.getRepository(Refund).createQueryBuilder('refund');
    if (query.chargeId) builder.andWhere('refund.chargeId = :chargeId', { chargeId: query.chargeId });
    if (query.status) builder.andWhere('refund.status = :status', { status: query.status });
    if (query.reference) builder.andWhere('refund.reference = :reference', { reference: query.reference });
    return paginate(builder, query);
  }

  /** The amount of each charge's succeeded refunds (charges without one are absent). */
  async refundedByCharge(chargeIds: string[]): Promise<Map<string, number>> {
    if (chargeIds.length === 0) return new Map();
    const rows: { charge_id: string; total: string }[] = await this.dataSource.query(
      `SELECT charge_id, sum(amount)::bigint AS total FROM refunds WHERE charge_id = ANY($1::uuid[]) AND status = 'succeeded' GROUP BY charge_id`,
      [chargeIds],
    );
    return new Map(rows.map((r) => [r.charge_id, Number(r.total)]));
  }

  /** Whether an earlier card refund of the charge is still open: the provider takes one refund of a payment at a time. */
  async earlierOpen(chargeId: string, number: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM refunds WHERE charge_id = $1 AND number < $2 AND destination = 'card' AND status = 'pending' LIMIT 1`,
      [chargeId, number],
    );
    return rows.length > 0;
  }

  /** What the charge's earlier card refunds took from its payment: the succeeded ones. */
  async succeededOnCardBefore(chargeId: string, number: number): Promise<number> {
    const [row]: { total: string }[] = await this.dataSource.query(
      `SELECT coalesce(sum(amount), 0)::bigint AS total FROM refunds WHERE charge_id = $1 AND number < $2 AND destination = 'card' AND status = 'succeeded'`,
      [chargeId, number],
    );
    return Number(row.total);
  }

  /** The charge's next card refund waiting for its turn (see LeasedQueue.wake). */
  nextOfCharge(chargeId: string): { sql: string; params: unknown[] } {
    return {
      sql: `SELECT id, true AS waiting FROM refunds WHERE charge_id = $1 AND destination = 'card' AND status = 'pending' ORDER BY number LIMIT 1`,
      params: [chargeId],
    };
  }

  /** The refunds of a provider invoice, and whether each waits for its outcome (see LeasedQueue.wake). */
  ofInvoice(providerInvoiceId: string): { sql: string; params: unknown[] } {
    return { sql: `SELECT id, status = 'pending' AS waiting FROM refunds WHERE provider_invoice_id = $1`, params: [providerInvoiceId] };
  }

  /** Card refunds still open at the provider, for the gauge. */
  async openAtProvider(): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(`SELECT count(*)::int AS n FROM refunds WHERE next_attempt_at IS NOT NULL AND status = 'pending'`);
    return row.n;
  }
}
