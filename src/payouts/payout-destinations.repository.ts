import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PayoutDestination } from './payout-destination.entity';

/** Ids per `IN (...)` list: keeps a statement far below PostgreSQL's 65535 parameters. */
const IDS_PER_READ = 1_000;

export type DestinationSummary = Pick<PayoutDestination, 'id' | 'status' | 'currency'>;

/** Owner of the `payout_destinations` table: every statement on it, the follower's queue included, starts here. */
@Injectable()
export class PayoutDestinationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(id: string): Promise<PayoutDestination | null> {
    return this.dataSource.getRepository(PayoutDestination).findOneBy({ id });
  }

  /** A page of destinations, newest first. */
  page(options: ListOptions): Promise<Page<PayoutDestination>> {
    return paginate(this.dataSource.getRepository(PayoutDestination).createQueryBuilder('destination'), options);
  }

  /** Status and currency of each destination found among `ids`, keyed by id. */
  async findSummaries(ids: string[]): Promise<Map<string, DestinationSummary>> {
    const found = new Map<string, DestinationSummary>();
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      const rows = await this.dataSource
        .getRepository(PayoutDestination)
        .find({ select: { id: true, status: true, currency: true }, where: { id: In(ids.slice(start, start + IDS_PER_READ)) } });
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  async insert(row: QueryDeepPartialEntity<PayoutDestination>): Promise<void> {
    await this.dataSource.getRepository(PayoutDestination).insert(row);
  }

  async update(id: string, changes: QueryDeepPartialEntity<PayoutDestination>): Promise<void> {
    await this.dataSource.getRepository(PayoutDestination).update({ id }, changes);
  }


  /** The provider says the destination moved: an Unauthorized one is read now. False when it is not ours. */
  async followNowByProviderId(providerDestinationId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE payout_destinations SET next_sync_at = LEAST(next_sync_at, now()) WHERE provider_destination_id = $1 AND status = 'Unauthorized' RETURNING id`,
      [providerDestinationId],
    );
    if (rows.length > 0) return true;
    const known: unknown[] = await this.dataSource.query(`SELECT 1 FROM payout_destinations WHERE provider_destination_id = $1`, [providerDestinationId]);
    return known.length > 0;
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.getRepository(PayoutDestination).delete({ id });
  }
}
