import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import { PendingItem, PendingItemLine, PendingItemSource, PendingItemStatus } from './pending-item.entity';

/** A pending item to insert (its id: the one an Idempotency-Key reserved, or a new one). */
export interface NewPendingItem {
  id: string;
  subscriptionId: string;
  customerId: string;
  source: PendingItemSource;
  lines: PendingItemLine[];
  amount: number;
  currency: string;
  description: string | null;
  reference: string | null;
}

/** Every statement on the `pending_items` table. */
@Injectable()
export class PendingItemsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the item in the caller's transaction; answers it, or null when a unique rule already holds one like it (its
   * id, its reference, the subscription's setup fee), which the caller then reads.
   */
  async insert(em: EntityManager, item: NewPendingItem, at: Date): Promise<PendingItem | null> {
    const rows: { id: string }[] = await em.query(
      `INSERT INTO pending_items (id, subscription_id, customer_id, source, lines, amount, currency, description, reference, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $10)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [item.id, item.subscriptionId, item.customerId, item.source, JSON.stringify(item.lines), item.amount, item.currency, item.description, item.reference, at],
    );
    return rows.length > 0 ? this.findById(item.id, em) : null;
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<PendingItem | null> {
    return em.getRepository(PendingItem).findOneBy({ id });
  }

  findByReference(em: EntityManager, reference: string): Promise<PendingItem | null> {
    return em.getRepository(PendingItem).findOneBy({ reference });
  }

  /** A subscription's items, newest first. */
  page(subscriptionId: string, options: ListOptions): Promise<Page<PendingItem>> {
    return paginate(this.dataSource.getRepository(PendingItem).createQueryBuilder('p').where('p.subscriptionId = :subscriptionId', { subscriptionId }), options);
  }

  /** A customer's items, newest first, only those in `status` when given. */
  pageOfCustomer(customerId: string, status: PendingItemStatus | undefined, options: ListOptions): Promise<Page<PendingItem>> {
    const query = this.dataSource.getRepository(PendingItem).createQueryBuilder('p').where('p.customerId = :customerId', { customerId });
    if (status) query.andWhere('p.status = :status', { status });
    return paginate(query, options);
  }

  /**
   * The pending items of these subscriptions, oldest first, locked until the caller's transaction ends: a DELETE of one
   * waits for it and then finds it billed, and no other pass can bill it meanwhile (the subscriptions are locked too).
   */
  lockPendingOf(em: EntityManager, subscriptionIds: string[]): Promise<PendingItem[]> {
    if (subscriptionIds.length === 0) return Promise.resolve([]);
    return em
      .getRepository(PendingItem)
      .createQueryBuilder('p')
      .where({ subscriptionId: In(subscriptionIds), status: 'pending' })
      .orderBy('p.seq', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Marks items billed by the charges that carry them, in the transaction that makes those charges. */
  async markBilled(em: EntityManager, billed: { itemId: string; chargeId: string }[], at: Date): Promise<void> {
    if (billed.length === 0) return;
    await em.query(
      `UPDATE pending_items p SET status = 'billed', charge_id = b.charge_id, updated_at = $3
         FROM unnest($1::uuid[], $2::uuid[]) AS b(id, charge_id)
        WHERE p.id = b.id AND p.status = 'pending'`,
      [billed.map((b) => b.itemId), billed.map((b) => b.chargeId), at],
    );
  }

  /** Drops one item still pending; answers whether it did (a billing pass holding it makes this wait, then find it billed). */
  async cancel(id: string, at: Date): Promise<boolean> {
    // An UPDATE answers [rows, count].
    const [, count]: [unknown[], number] = await this.dataSource.query(`UPDATE pending_items SET status = 'canceled', updated_at = $2 WHERE id = $1 AND status = 'pending'`, [id, at]);
    return count > 0;
  }

  /** Drops the pending items of a subscription that ended, in the transaction that ends it. */
  async cancelPendingOf(em: EntityManager, subscriptionId: string, at: Date): Promise<void> {
    await em.query(`UPDATE pending_items SET status = 'canceled', updated_at = $2 WHERE subscription_id = $1 AND status = 'pending'`, [subscriptionId, at]);
  }
}
