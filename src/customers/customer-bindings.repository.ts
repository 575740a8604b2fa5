import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import { CustomerBinding } from './customer-binding.entity';
import type { BindingObservation, BindingPatch, ObservedBindingValues } from './customer-event-fold';
import type { CardSummary } from './sync-schedule';

/** Statuses of a binding whose outcome is not known yet. */
const OPEN_STATUSES = ['pending', 'unknown'];

/**
 * Every statement on the `customer_bindings` table. Methods that take an EntityManager run inside the caller's
 * transaction (the customer row is locked first there, so writers never wait on each other in opposite order).
 */
@Injectable()
export class CustomerBindingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  page(customerId: string, options: ListOptions): Promise<Page<CustomerBinding>> {
    const query = this.dataSource.getRepository(CustomerBinding).createQueryBuilder('binding').where('binding.customerId = :customerId', { customerId });
    return paginate(query, options);
  }

  /** One binding of one customer, or null. */
  findOfCustomer(customerId: string, bindingId: string): Promise<CustomerBinding | null> {
    return this.dataSource.getRepository(CustomerBinding).findOneBy({ id: bindingId, customerId });
  }

  /** Per customer, the newest binding whose outcome is not known yet (customers with none are absent). */
  async newestOpenByCustomer(customerIds: string[], em: EntityManager = this.dataSource.manager): Promise<Map<string, CustomerBinding>> {
    if (customerIds.length === 0) return new Map();
    const rows = await em
      .getRepository(CustomerBinding)
      .createQueryBuilder('binding')
      .distinctOn(['binding.customerId'])
      .where('binding.customerId IN (:...customerIds) AND binding.status IN (:...open)', { customerIds, open: OPEN_STATUSES })
      .orderBy('binding.customerId')
      .addOrderBy('binding.createdAt', 'DESC')
      .getMany();
    return new Map(rows.map((row) => [row.customerId, row]));
  }

  /** The provider id of the customer's most recently updated succeeded binding. */
  async findNewestSucceededProviderId(customerId: string): Promise<string | undefined> {
    const row = await this.dataSource.getRepository(CustomerBinding).findOne({
      where: { customerId, status: 'succeeded' },
      // seq breaks the tie when a test clock standing still gave two bindings one business time.
      order: { updatedAt: 'DESC', createdAt: 'DESC', seq: 'DESC' },
    });
    return row?.providerBindingId ?? undefined;
  }

  /** The intent of a binding we are about to start at the provider: a pending row with its externalId, made at `now`. */
  async insertIntent(intent: { id: string; customerId: string; externalId: string }, now: Date, em: EntityManager): Promise<void> {
    await em.getRepository(CustomerBinding).insert({ ...intent, status: 'pending', createdAt: now, updatedAt: now });
  }

  /** Removes an intent the provider never saw (nothing exists there); a row it already answered stays. */
  async deleteUnstartedIntent(id: string, em: EntityManager): Promise<void> {
    await em.query(`DELETE FROM customer_bindings WHERE id = $1 AND provider_binding_id IS NULL`, [id]);
  }

  /** The create call's answer was lost: a still-pending row becomes `unknown`. */
  async markOutcomeUnknown(id: string, now: Date): Promise<void> {
    await this.dataSource.query(`UPDATE customer_bindings SET status = 'unknown', updated_at = $2 WHERE id = $1 AND status = 'pending'`, [id, now]);
  }

  /** Records the provider's answer to create-binding; only a row still in progress takes it. Answers whether it did. */
  async recordCreateAnswer(id: string, answer: BindingPatch, now: Date, em: EntityManager): Promise<boolean> {
    const result = await em
      .getRepository(CustomerBinding)
      .createQueryBuilder()
      .update()
      .set({ ...answer, updatedAt: now })
      .where('id = :id AND status IN (:...open)', { id, open: OPEN_STATUSES })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** The local row of an observed binding: by provider id, else (an API binding) by the externalID we sent. */
  async findObserved(customerId: string, observation: BindingObservation, em: EntityManager): Promise<CustomerBinding | null> {
    const repo = em.getRepository(CustomerBinding);
    const row = await repo.findOne({ where: { providerBindingId: observation.providerBindingId } });
    if (row || observation.externalId === undefined) return row;
    return repo.findOne({ where: { externalId: observation.externalId, customerId } });
  }

  /** Inserts the row of an observed binding (made at `now`) unless one with its provider id exists; returns the row that holds it. */
  async insertObserved(values: ObservedBindingValues, now: Date, em: EntityManager): Promise<CustomerBinding | null> {
    const repo = em.getRepository(CustomerBinding);
    await repo.createQueryBuilder().insert().values({ ...values, createdAt: now, updatedAt: now }).orIgnore().execute();
    return repo.findOne({ where: { providerBindingId: values.providerBindingId } });
  }

  /** Writes the patch, stamped with `now` (business time) as updatedAt. */
  async update(id: string, patch: BindingPatch, now: Date, em: EntityManager): Promise<void> {
    await em.getRepository(CustomerBinding).update(id, { ...patch, updatedAt: now });
  }

  /** Stores the card details of the binding that became the active card. */
  async recordCard(providerBindingId: string, card: CardSummary, now: Date, em: EntityManager): Promise<void> {
    await em
      .getRepository(CustomerBinding)
      .update({ providerBindingId }, { cardBin: card.bin, cardLastDigits: card.lastDigits, cardPaymentSystem: card.paymentSystem, updatedAt: now });
  }

  /**
   * Fails the customer's intents the provider never saw that are older than `olderThanMs` of real time (the payment
   * tool token's life is real time); `now` (business time) becomes their updatedAt. Answers their ids.
   */
  async failUnstarted(customerId: string, errorCode: string, olderThanMs: number, now: Date, em: EntityManager): Promise<string[]> {
    const [rows] = (await em.query(
      `UPDATE customer_bindings SET status = 'failed', error_code = $2, updated_at = $4
       WHERE customer_id = $1 AND provider_binding_id IS NULL AND status IN ('pending', 'unknown')
         AND real_created_at < now() - $3::float8 * interval '1 millisecond'
       RETURNING id`,
      [customerId, errorCode, olderThanMs, now],
    )) as [{ id: string }[], number];
    return rows.map((r) => r.id);
  }

  /** Database now and when (real time) the customer's newest binding still in progress was created (null: none). */
  async newestOpenBinding(customerId: string, em: EntityManager): Promise<{ dbNow: Date; newestCreatedAt: Date | null }> {
    const [row] = await em.query<{ db_now: Date; newest: Date | null }[]>(
      `SELECT now() AS db_now, max(real_created_at) AS newest FROM customer_bindings WHERE customer_id = $1 AND status IN ('pending', 'unknown')`,
      [customerId],
    );
    return { dbNow: row.db_now, newestCreatedAt: row.newest };
  }
}
