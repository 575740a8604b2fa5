import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PAYOUT_SETUP_ROW_ID, PayoutSetup } from './payout-setup.entity';

export type PayoutSetupRow = Pick<PayoutSetup, 'id' | 'identityId' | 'walletId' | 'currency' | 'adopted'>;

/** Owner of the `payout_setup` table, whose one row is PAYOUT_SETUP_ROW_ID. */
@Injectable()
export class PayoutSetupRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(): Promise<PayoutSetup | null> {
    return this.dataSource.getRepository(PayoutSetup).findOneBy({ id: PAYOUT_SETUP_ROW_ID });
  }

  /** Inserts the row, or leaves the one already there (the first of racing replicas wins). */
  async insertIfAbsent(row: PayoutSetupRow): Promise<void> {
    await this.dataSource.createQueryBuilder().insert().into(PayoutSetup).values(row).orIgnore().execute();
  }

  /** Inserts the row, or replaces the one already there. */
  async save(row: PayoutSetupRow): Promise<void> {
    await this.dataSource.getRepository(PayoutSetup).save(row);
  }
}
