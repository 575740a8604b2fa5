import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SystemClock } from '../common/clock/system-clock';
import { Page, paginate } from '../common/http/pagination';
import { CreatePayoutDto } from './create-payout.dto';
import { ListPayoutsQueryDto } from './list-payouts-query.dto';
import { Payout, PAYOUT_STATUSES } from './payout.entity';
import { PayoutBatch } from './payout-batch.entity';
import { PayoutDestination } from './payout-destination.entity';
import { PayoutCounts } from './payout-responses';
import { PayoutSchedulerService } from './payout-scheduler.service';
import { PayoutSetup } from './payout-setup.entity';
import { PayoutSetupService } from './payout-setup.service';

/** Rows per INSERT statement: ~10 parameters each keeps a statement far below PostgreSQL's 65535. */
const INSERT_CHUNK = 1_000;
/** Field messages listed in one refusal; the rest are counted. */
const MAX_MESSAGES = 50;

export interface PayoutBatchWithCounts {
  batch: PayoutBatch;
  counts: PayoutCounts;
}

/** Accepts payouts (single or in batches, all-or-nothing) and answers them; the processor does the provider work. */
@Injectable()
export class PayoutsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    private readonly setup: PayoutSetupService,
    private readonly scheduler: PayoutSchedulerService,
  ) {}

  async create(dto: CreatePayoutDto): Promise<Payout> {
    const setup = await this.setup.require();
    await this.validate([dto], setup, () => '');
    const [row] = this.rows([dto], setup, null);
    await this.dataSource.getRepository(Payout).insert(row);
    this.scheduler.kick();
    return this.get(row.id as string);
  }

  async createBatch(items: CreatePayoutDto[]): Promise<PayoutBatchWithCounts> {
    const setup = await this.setup.require();
    await this.validate(items, setup, (index) => `items.${index}.`);
    const batch = await this.dataSource.transaction(async (em) => {
      const created = em.getRepository(PayoutBatch).create({ id: randomUUID(), total: items.length });
      await em.getRepository(PayoutBatch).insert(created);
      const rows = this.rows(items, setup, created.id);
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await em.createQueryBuilder().insert().into(Payout).values(rows.slice(start, start + INSERT_CHUNK)).updateEntity(false).execute();
      }
      return em.getRepository(PayoutBatch).findOneByOrFail({ id: created.id });
    });
    this.scheduler.kick();
    return { batch, counts: { ...zeroCounts(), pending: items.length } };
  }

  async get(id: string): Promise<Payout> {
    const payout = await this.dataSource.getRepository(Payout).findOneBy({ id });
    if (!payout) throw new NotFoundException(`Payout ${id} not found`);
    return payout;
  }

  list(query: ListPayoutsQueryDto): Promise<Page<Payout>> {
    const builder = this.dataSource.getRepository(Payout).createQueryBuilder('payout');
    if (query.status) builder.andWhere('payout.status = :status', { status: query.status });
    if (query.batchId) builder.andWhere('payout.batchId = :batchId', { batchId: query.batchId });
    return paginate(builder, query);
  }

  async getBatch(id: string): Promise<PayoutBatchWithCounts> {
    const batch = await this.dataSource.getRepository(PayoutBatch).findOneBy({ id });
    if (!batch) throw new NotFoundException(`Payout batch ${id} not found`);
    const rows: { status: string; count: number }[] = await this.dataSource.query(
      'SELECT status, count(*)::int AS count FROM payouts WHERE batch_id = $1 GROUP BY status',
      [id],
    );
    const counts = zeroCounts();
    for (const row of rows) {
      if ((PAYOUT_STATUSES as readonly string[]).includes(row.status)) counts[row.status as keyof PayoutCounts] = row.count;
    }
    return { batch, counts };
  }

  /** Business rules of every item, checked before anything is stored; one refusal lists each bad field. */
  private async validate(items: CreatePayoutDto[], setup: PayoutSetup, prefix: (index: number) => string): Promise<void> {
    const ids = [...new Set(items.map((item) => item.destinationId))];
    const destinations = new Map<string, Pick<PayoutDestination, 'id' | 'status' | 'currency'>>();
    for (let start = 0; start < ids.length; start += INSERT_CHUNK) {
      const found = await this.dataSource
        .getRepository(PayoutDestination)
        .find({ select: { id: true, status: true, currency: true }, where: { id: In(ids.slice(start, start + INSERT_CHUNK)) } });
      for (const destination of found) destinations.set(destination.id, destination);
    }
    const messages: string[] = [];
    let count = 0;
    const refuse = (message: string) => {
      count++;
      if (messages.length < MAX_MESSAGES) messages.push(message);
    };
    items.forEach((item, index) => {
      const at = prefix(index);
      if (item.currency !== setup.currency) refuse(`${at}currency must be the payout wallet's currency ${setup.currency}`);
      const destination = destinations.get(item.destinationId);
      if (!destination) {
        refuse(`${at}destinationId: no payout destination with this id`);
      } else if (destination.status === 'failed' || destination.status === 'creating') {
        refuse(`${at}destinationId: the destination was never created at the provider (status ${destination.status})`);
      } else if (destination.currency !== item.currency && item.currency === setup.currency) {
        refuse(`${at}currency must be the destination's currency ${destination.currency}`);
      }
    });
    if (count > messages.length) messages.push(`… and ${count - messages.length} more`);
    if (messages.length > 0) throw new UnprocessableEntityException(messages);
  }

  private rows(items: CreatePayoutDto[], setup: PayoutSetup, batchId: string | null): QueryDeepPartialEntity<Payout>[] {
    const now = this.clock.now();
    return items.map((item) => {
      const id = randomUUID();
      return {
        id,
        destinationId: item.destinationId,
        batchId,
        walletId: setup.walletId,
        amount: item.amount,
        currency: item.currency,
        status: 'pending' as const,
        withdrawalExternalId: `w${id.replace(/-/g, '')}`,
        nextAttemptAt: now,
        metadata: (item.metadata ?? {}) as QueryDeepPartialEntity<Record<string, unknown>>,
      };
    });
  }
}

function zeroCounts(): PayoutCounts {
  return { pending: 0, processing: 0, succeeded: 0, failed: 0 };
}
