import { BadRequestException, ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { withErrorCode } from '../common/errors/coded-error';
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
import { withdrawalExternalId } from './payout-identity';

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

  /**
   * Accepts a payout; `created` is false when its reference already names a payout with the same body, which is
   * answered instead (a merchant's retry, or a resubmission after the database was restored). `reservedId`: the id
   * the request's Idempotency-Key reserved; a re-run of the key answers the payout made with it.
   */
  async create(dto: CreatePayoutDto, reservedId?: string): Promise<{ payout: Payout; created: boolean }> {
    const made = reservedId === undefined ? null : await this.payouts.findById(reservedId);
    if (made) return { payout: made, created: true };
    const setup = await this.setup.require();
    if (dto.reference !== undefined) {
      const [existing] = await this.payouts.findByReferences([dto.reference]);
      if (existing) return { payout: sameBodyOrConflict(existing, dto), created: false };
    }
    await this.validate([dto], setup, () => '');
    const [row] = this.rows([dto], setup, null, reservedId);
    try {
      await this.payouts.insert(row);
    } catch (error) {
      // Another request with this reference won the race: answer as if it had come first.
      if (dto.reference === undefined || !isReferenceTaken(error)) throw error;
      const [existing] = await this.payouts.findByReferences([dto.reference]);
      if (!existing) throw error;
      return { payout: sameBodyOrConflict(existing, dto), created: false };
    }
    this.scheduler.kick();
    return { payout: await this.get(row.id as string), created: true };
  }

  /** `reservedId`: as for create, the batch's id; its payouts are stored in the batch's transaction. */
  async createBatch(items: CreatePayoutDto[], reservedId?: string): Promise<PayoutBatchWithCounts> {
    if (reservedId !== undefined && (await this.batches.findById(reservedId))) return this.getBatch(reservedId);
    const setup = await this.setup.require();
    await this.refuseTakenReferences(items);
    await this.validate(items, setup, (index) => `items.${index}.`);
    // All or nothing: the batch and every one of its payouts are stored in one transaction.
    const batch = await this.payouts.transaction(async (em) => {
      const batchId = reservedId ?? randomUUID();
      await this.batches.insert({ id: batchId, total: items.length, createdAt: this.businessClock.now() }, em);
      await this.payouts.insertMany(this.rows(items, setup, batchId), em).catch((error: unknown) => {
        if (isReferenceTaken(error)) throw referenceTaken(['items: a reference was taken by another payout meanwhile; submit the batch again to see which']);
        throw error;
      });
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

  /**
   * A batch is accepted whole or not at all: a reference repeated inside it is a 400, one that names an existing
   * payout a 409 listing them (submit the batch again without those items).
   */
  private async refuseTakenReferences(items: CreatePayoutDto[]): Promise<void> {
    const firstIndex = new Map<string, number>();
    const repeated: string[] = [];
    items.forEach((item, index) => {
      if (item.reference === undefined) return;
      const first = firstIndex.get(item.reference);
      if (first === undefined) firstIndex.set(item.reference, index);
      else repeated.push(`items.${index}.reference repeats items.${first}.reference (${item.reference}); a reference names one payout`);
    });
    if (repeated.length > 0) throw withErrorCode(new BadRequestException(repeated.slice(0, MAX_MESSAGES)), 'validation_failed', { field: repeated[0].split(' ')[0] });
    const taken = await this.payouts.findByReferences([...firstIndex.keys()]);
    if (taken.length === 0) return;
    const messages = taken
      .map((payout) => ({ payout, index: firstIndex.get(payout.reference as string) as number }))
      .sort((a, b) => a.index - b.index)
      .map(({ payout, index }) => `items.${index}.reference ${payout.reference} is taken by payout ${payout.id}`);
    throw referenceTaken(messages.slice(0, MAX_MESSAGES), { payoutId: taken[0].id, field: messages[0].split(' ')[0] });
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
        reference: item.reference ?? null,
        withdrawalExternalId: withdrawalExternalId(id, item.reference ?? null),
        nextAttemptAt: now,
        metadata: (item.metadata ?? {}) as QueryDeepPartialEntity<Record<string, unknown>>,
        createdAt: shownNow,
        updatedAt: shownNow,
      };
    });
  }
}

/** The payout a reference names, when the request's body equals the one it was made with; 409 otherwise. */
function sameBodyOrConflict(existing: Payout, dto: CreatePayoutDto): Payout {
  const same =
    existing.destinationId === dto.destinationId.toLowerCase() &&
    existing.amount === dto.amount &&
    existing.currency === dto.currency &&
    isDeepStrictEqual(existing.metadata, dto.metadata ?? {});
  if (same) return existing;
  throw referenceTaken([`reference ${existing.reference} is taken by payout ${existing.id}, made with another body`], { payoutId: existing.id, field: 'reference' });
}

function referenceTaken(messages: string[], details: { payoutId?: string; field?: string } = {}): ConflictException {
  const exception = withErrorCode(new ConflictException(messages), 'payout_reference_taken', { field: details.field ?? 'reference' });
  if (details.payoutId) Object.assign(exception.getResponse() as object, { payoutId: details.payoutId });
  return exception;
}

/**
 * A unique index refused an insert because a reference was taken. Either index may fire first: a reference's
 * withdrawal externalID derives from it alone, so a taken reference is a taken externalID too (ids without one
 * derive from a fresh uuid and never collide).
 */
const REFERENCE_INDEXES = new Set(['payouts_reference_uq', 'payouts_withdrawal_external_id_uq']);

function isReferenceTaken(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && REFERENCE_INDEXES.has(driverError.constraint ?? '');
}

function addCount(counts: PayoutCounts, row: { status: string; count: number }): void {
  if ((PAYOUT_STATUSES as readonly string[]).includes(row.status)) counts[row.status as keyof PayoutCounts] = row.count;
}

function zeroCounts(): PayoutCounts {
  return { pending: 0, processing: 0, succeeded: 0, failed: 0 };
}
