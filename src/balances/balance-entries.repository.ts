import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BalanceEntry, BalanceEntryKind } from './balance-entry.entity';

export interface NewBalanceEntry {
  customerId: string;
  currency: string;
  kind: BalanceEntryKind;
  amount: number;
  reference: string;
  subscriptionId?: string | null;
  chargeId?: string | null;
  description?: string | null;
}

/** Every statement on the `balance_entries` table (append-only: no UPDATE, no DELETE). */
@Injectable()
export class BalanceEntriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Serializes every write to one customer's balance in one currency until the caller's transaction ends, so a
   * balance read and the entry written from it cannot interleave with another replica's.
   */
  async lock(em: EntityManager, customerId: string, currency: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 15))`, [`balance:${customerId}:${currency}`]);
  }

  async sum(em: EntityManager | null, customerId: string, currency: string): Promise<number> {
    const [row] = await (em ?? this.dataSource).query(`SELECT COALESCE(sum(amount), 0)::bigint AS total FROM balance_entries WHERE customer_id = $1 AND currency = $2`, [
      customerId,
      currency,
    ]);
    return Number(row.total);
  }

  /** Appends the entry unless one with its reference exists; answers the entry under that reference either way. */
  async append(em: EntityManager, entry: NewBalanceEntry, at: Date): Promise<{ entry: BalanceEntry; inserted: boolean }> {
    const rows: { id: string }[] = await em.query(
      `INSERT INTO balance_entries (customer_id, currency, kind, amount, reference, subscription_id, charge_id, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (reference) DO NOTHING
       RETURNING id`,
      [entry.customerId, entry.currency, entry.kind, entry.amount, entry.reference, entry.subscriptionId ?? null, entry.chargeId ?? null, entry.description ?? null, at],
    );
    const found = await em.getRepository(BalanceEntry).findOneByOrFail({ reference: entry.reference });
    return { entry: found, inserted: rows.length > 0 };
  }

  findByReference(em: EntityManager | null, reference: string): Promise<BalanceEntry | null> {
    return (em ?? this.dataSource.manager).getRepository(BalanceEntry).findOneBy({ reference });
  }

  /** Of these customers, those with a balance above zero in some currency (one read for a whole batch). */
  async withBalance(em: EntityManager, customerIds: string[]): Promise<Set<string>> {
    if (customerIds.length === 0) return new Set();
    const rows: { customer_id: string }[] = await em.query(
      `SELECT customer_id FROM balance_entries WHERE customer_id = ANY($1::uuid[]) GROUP BY customer_id, currency HAVING sum(amount) > 0`,
      [customerIds],
    );
    return new Set(rows.map((r) => r.customer_id));
  }

  async balances(customerId: string): Promise<{ currency: string; amount: number }[]> {
    const rows: { currency: string; total: string }[] = await this.dataSource.query(
      `SELECT currency, sum(amount)::bigint AS total FROM balance_entries WHERE customer_id = $1 GROUP BY currency ORDER BY currency`,
      [customerId],
    );
    return rows.map((r) => ({ currency: r.currency, amount: Number(r.total) }));
  }

  /** The newest entries first. */
  entries(customerId: string, limit: number): Promise<BalanceEntry[]> {
    return this.dataSource.getRepository(BalanceEntry).find({ where: { customerId }, order: { seq: 'DESC' }, take: limit });
  }
}
