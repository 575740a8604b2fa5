import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { ListOptions, Page } from '../common/http/pagination';
import { CreatePayoutDto } from './create-payout.dto';
import { ListPayoutsQueryDto } from './list-payouts-query.dto';
import { Payout, PAYOUT_STATUSES } from './payout.entity';
import { PayoutBatch } from './payout-batch.entity';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutDestinationsRepository } from './payout-destinations.repository';
import { PayoutCounts } from './payout-responses';
import { PayoutSchedulerService } from './payout-scheduler.service';
import { PayoutSetup } from './payout-setup.entity';
import { PayoutSetupService } from './payout-setup.service';
import { PayoutsRepository } from './payouts.repository';

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
    private readonly payouts: PayoutsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly destinations: PayoutDestinationsRepository,
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    private readonly setup: PayoutSetupService,
    private readonly scheduler: PayoutSchedulerService,
    // The times the API shows (createdAt, updatedAt) are the billing clock's, like every other object's.
    private readonly businessClock: Clock,
  ) {}

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers the payout made with it. */
  async create(dto: CreatePayoutDto, reservedId?: string): Promise<Payout> {
    const made = reservedId === undefined ? null : await this.payouts.findById(reservedId);
    if (made) return made;
    const setup = await this.setup.require();
    await this.validate([dto], setup, () => '');
    const [row] = this.rows([dto], setup, null, reservedId);
    await this.payouts.insert(row);
    this.scheduler.kick();
    return this.get(row.id as string);
  }

  /** `reservedId`: as for create, the batch's id; its payouts are stored in the batch's transaction. */
  async createBatch(items: CreatePayoutDto[], reservedId?: string): Promise<PayoutBatchWithCounts> {
    if (reservedId !== undefined && (await this.batches.findById(reservedId))) return this.getBatch(reservedId);
    const setup = await this.setup.require();
    await this.validate(items, setup, (index) => `items.${index}.`);
    // All or nothing: the batch and every one of its payouts are stored in one transaction.
    const batch = await this.payouts.transaction(async (em) => {
      const batchId = reservedId ?? randomUUID();
      await this.batches.insert({ id: batchId, total: items.length, createdAt: this.businessClock.now() }, em);
      await this.payouts.insertMany(this.rows(items, setup, batchId), em);
      return this.batches.getById(batchId, em);
    });
    this.scheduler.kick();
    return { batch, counts: { ...zeroCounts(), pending: items.length } };
  }

  async get(id: string): Promise<Payout> {
    const payout = await this.payouts.findById(id);
    if (!payout) throw new NotFoundException(`Payout ${id} not found`);
    return payout;
  }

  list(query: ListPayoutsQueryDto): Promise<Page<Payout>> {
    return this.payouts.list(query);
  }

  async getBatch(id: string): Promise<PayoutBatchWithCounts> {
    const batch = await this.batches.findById(id);
    if (!batch) throw new NotFoundException(`Payout batch ${id} not found`);
    const counts = zeroCounts();
    for (const row of await this.payouts.countByStatusInBatch(id)) addCount(counts, row);
    return { batch, counts };
  }

  /** A page of batches, newest first, each with its counts (one grouped count for the whole page). */
  async listBatches(options: ListOptions): Promise<Page<PayoutBatchWithCounts>> {
    const page = await this.batches.page(options);
    const counts = new Map(page.items.map((batch) => [batch.id, zeroCounts()]));
    for (const row of await this.payouts.countByStatusInBatches([...counts.keys()])) addCount(counts.get(row.batchId) as PayoutCounts, row);
    return { items: page.items.map((batch) => ({ batch, counts: counts.get(batch.id) as PayoutCounts })), nextCursor: page.nextCursor };
  }

  /** Business rules of every item, checked before anything is stored; one refusal lists each bad field. */
  private async validate(items: CreatePayoutDto[], setup: PayoutSetup, prefix: (index: number) => string): Promise<void> {
    const destinations = await this.destinations.findSummaries([...new Set(items.map((item) => item.destinationId))]);
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

  private rows(items: CreatePayoutDto[], setup: PayoutSetup, batchId: string | null, firstId?: string): QueryDeepPartialEntity<Payout>[] {
    const now = this.clock.now();
    const shownNow = this.businessClock.now();
    return items.map((item, index) => {
      const id = (index === 0 && firstId) || randomUUID();
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
        createdAt: shownNow,
        updatedAt: shownNow,
      };
    });
  }
}

function addCount(counts: PayoutCounts, row: { status: string; count: number }): void {
  if ((PAYOUT_STATUSES as readonly string[]).includes(row.status)) counts[row.status as keyof PayoutCounts] = row.count;
}

function zeroCounts(): PayoutCounts {
  return { pending: 0, processing: 0, succeeded: 0, failed: 0 };
}
