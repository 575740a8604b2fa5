import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import { PayoutBatch } from './payout-batch.entity';

/** Owner of the `payout_batches` table. */
@Injectable()
export class PayoutBatchesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(batch: Pick<PayoutBatch, 'id' | 'total' | 'createdAt'>, em: EntityManager = this.dataSource.manager): Promise<void> {
    const repository = em.getRepository(PayoutBatch);
    await repository.insert(repository.create(batch));
  }

  /** A page of batches, newest first. */
  page(options: ListOptions): Promise<Page<PayoutBatch>> {
    return paginate(this.dataSource.getRepository(PayoutBatch).createQueryBuilder('batch'), options);
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<PayoutBatch | null> {
    return em.getRepository(PayoutBatch).findOneBy({ id });
  }

  /** The stored batch, as the database holds it (seq filled in). */
  getById(id: string, em: EntityManager = this.dataSource.manager): Promise<PayoutBatch> {
    return em.getRepository(PayoutBatch).findOneByOrFail({ id });
  }
}
