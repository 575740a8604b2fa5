import { LeasedQueues } from '../work/leased-queues.service';
import { BadRequestException, Injectable, Logger, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { ListOptions, Page } from '../common/http/pagination';
import type { Destination, DestinationParams } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { WalletGateway } from '../gateway/wallet.gateway';
import { isExpired } from './card-checks';
import { CreatePayoutDestinationDto } from './create-payout-destination.dto';
import { PayoutDestination } from './payout-destination.entity';
import { PayoutDestinationsRepository } from './payout-destinations.repository';
import { PayoutSetupService } from './payout-setup.service';
import { PayoutTuning } from './payout-tuning';
import { httpErrorForProvider } from '../gateway/provider-error-to-http';
import { PayoutsRepository } from './payouts.repository';
import { ShutdownSignal } from '../common/shutdown-signal';
import { Claim, LeasedQueue } from '../work/leased-queue';
import { LeaseLostError } from '../work/lease-lost.error';
import { withErrorCode } from '../common/errors/coded-error';

/** Rounds of the destination create within one request when its outcome stays unknown (the gateway retries inside each). */
const CREATE_ROUNDS = 2;
const CREATE_ROUND_PAUSE_MS = 250;
/** Destinations the follower reads per pass. */
const FOLLOW_BATCH = 100;
/** How long an Authorized destination is served from memory: a batch to one card reads its row once, not per payout. */
const AUTHORIZED_CACHE_MS = 5_000;

/** Destinations read at once by the follower. */
const FOLLOW_CONCURRENCY = 4;
/** The destinations' queue of the work engine (the payouts' loop works it). */
const DESTINATIONS_QUEUE = 'destinations';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Setup order steps 3 to 5: tokenize the card, bind the token to the identity as a destination, follow it until
 * Authorized. Card data and the token live only in the request that tokenizes them.
 */
@Injectable()
export class PayoutDestinationsService {
  private readonly logger = new Logger(PayoutDestinationsService.name);
  /** One provider read per destination at a time in this process, however many payouts wait for it. */
  private readonly reads = new Map<string, Promise<PayoutDestination | undefined>>();
  private readonly authorized = new Map<string, { destination: PayoutDestination; until: number }>();
  private readonly queue: LeasedQueue<PayoutDestination>;

  constructor(
    private readonly destinations: PayoutDestinationsRepository,
    private readonly payouts: PayoutsRepository,
    // Payouts have no business calendar: they run on real time, whatever the test clock says.
    private readonly clock: SystemClock,
    private readonly wallets: WalletGateway,
    private readonly setup: PayoutSetupService,
    private readonly tuning: PayoutTuning,
    queues: LeasedQueues,
    private readonly shutdown: ShutdownSignal,
    // Only for the times the API shows (createdAt, authorizedAt): the billing clock, like every other object's.
    private readonly businessClock: Clock,
  ) {
    this.queue = queues.create<PayoutDestination>({
      name: DESTINATIONS_QUEUE,
      entity: PayoutDestination,
      dueColumn: 'next_sync_at',
      dueAgainst: 'database',
      hasNotBefore: false,
    });
  }

  async get(id: string): Promise<PayoutDestination> {
    const destination = await this.destinations.findById(id);
    if (!destination) throw new NotFoundException(`Payout destination ${id} not found`);
    return destination;
  }

  list(options: ListOptions): Promise<Page<PayoutDestination>> {
    return this.destinations.page(options);
  }

  async create(dto: CreatePayoutDestinationDto): Promise<PayoutDestination> {
    if ((dto.card === undefined) === (dto.cardToken === undefined)) {
      throw new BadRequestException(['send exactly one of card or cardToken']);
    }
    if (dto.card && isExpired(dto.card.expDate, this.clock.now())) {
      throw withErrorCode(new UnprocessableEntityException(['card.expDate is in the past: the card has expired']), 'business_rule', { field: 'card.expDate' });
    }
    const setup = await this.setup.require();
    if (dto.currency !== setup.currency) {
      throw withErrorCode(new UnprocessableEntityException([`currency must be the payout wallet's currency ${setup.currency}`]), 'business_rule', { field: 'currency' });
    }

    let token: string;
    let card: Pick<PayoutDestination, 'bin' | 'lastDigits' | 'paymentSystem'> = { bin: null, lastDigits: null, paymentSystem: null };
    if (dto.card) {
      try {
        const tokenized = await this.wallets.tokenizeBankCard({
          type: 'BankCard',
          cardNumber: dto.card.cardNumber,
          expDate: dto.card.expDate,
          cardHolder: dto.card.cardHolder,
          cvv: dto.card.cvv,
        });
        token = tokenized.token;
        card = { bin: tokenized.bin ?? null, lastDigits: tokenized.lastDigits ?? null, paymentSystem: tokenized.paymentSystem ?? null };
      } catch (error) {
        if (error instanceof ProviderError) throw httpErrorForProvider(error, 'read the card', 'card');
        throw error;
      }
    } else {
      token = dto.cardToken as string;
    }

    // The intent is written before the create, so a destination the provider may hold is never unaccounted for.
    const id = randomUUID();
    await this.destinations.insert({
      id,
      externalId: `d${id.replace(/-/g, '')}`,
      identityId: setup.identityId,
      name: dto.name,
      currency: dto.currency,
      status: 'creating',
      createdAt: this.businessClock.now(),
      ...card,
      metadata: (dto.metadata ?? {}) as QueryDeepPartialEntity<Record<string, unknown>>,
    });

    let created: Destination;
    try {
      created = await this.createAtProvider({
        name: dto.name,
        identity: setup.identityId,
        currency: dto.currency,
        resource: { type: 'BankCardDestinationResource', token },
        metadata: { ...(dto.metadata ?? {}), destinationId: id },
        externalID: `d${id.replace(/-/g, '')}`,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.isDefinitelyNotApplied) {
        await this.destinations.delete(id);
        throw httpErrorForProvider(error, 'create the destination', dto.card ? 'card' : 'cardToken');
      }
      // The token is gone with this request, so the create cannot be resumed later: keep the row as a record.
      await this.destinations.update(id, { status: 'failed' });
      this.logger.warn(`Destination ${id}: the create's outcome stayed unknown (${error.message}); send the card again for a new destination`);
      // Harmless if it was made after all: a destination moves no money, and this one is never used.
      throw httpErrorForProvider(error, 'create the destination', undefined, `Destination ${id} is kept as failed and never used: send the card again for a new one.`);
    }

    const now = this.clock.now();
    await this.destinations.update(id, {
      providerDestinationId: created.id,
      status: created.status,
      bin: card.bin ?? created.resource?.bin ?? null,
      lastDigits: card.lastDigits ?? created.resource?.lastDigits ?? null,
      paymentSystem: card.paymentSystem ?? created.resource?.paymentSystem ?? null,
      nextSyncAt: created.status === 'Authorized' ? null : new Date(now.getTime() + this.tuning.destinationPollMs),
      authorizedAt: created.status === 'Authorized' ? this.businessClock.now() : null,
    });
    this.logger.log(`Destination ${id} created at the provider as ${created.id} (${created.status})`);
    return this.get(id);
  }

  /**
   * The destination as a payout needs it: an Unauthorized one due for a read is claimed and read at the provider
   * first (unless another process holds it: then as it is). Throws ProviderError when that read fails.
   */
  async current(id: string): Promise<PayoutDestination | null> {
    const cached = this.authorized.get(id);
    if (cached && cached.until > performance.now()) return cached.destination;
    const destination = await this.destinations.findById(id);
    if (destination?.status === 'Authorized') this.authorized.set(id, { destination, until: performance.now() + AUTHORIZED_CACHE_MS });
    if (!destination || destination.status !== 'Unauthorized') return destination;
    if (destination.nextSyncAt !== null && destination.nextSyncAt > this.clock.now()) return destination;
    return (await this.followNow(id)) ?? destination;
  }

  /** A withdrawal was refused because the destination is not authorized (any more): follow it again from now. */
  async markUnauthorized(id: string): Promise<void> {
    this.authorized.delete(id);
    await this.destinations.update(id, { status: 'Unauthorized', nextSyncAt: this.clock.now(), authorizedAt: null });
  }

  /** Reads every Unauthorized destination that is due; returns how many were read. Read failures are retried later. */
  async followDue(): Promise<number> {
    let read = 0;
    await this.queue.drain(
      (limit) => this.queue.claim(limit),
      async (claim) => {
        try {
          if (await this.track(claim.row.id, this.follow(claim))) read++;
        } catch (error) {
          this.logger.warn(`Destination ${claim.row.id}: reading it at the provider failed (${error instanceof Error ? error.message : String(error)}); trying again later`);
        }
      },
      { concurrency: FOLLOW_CONCURRENCY, batchSize: FOLLOW_BATCH, stopping: () => this.shutdown.isShuttingDown },
    );
    return read;
  }

  /** Operation 11 with its externalID; an unknown outcome is repeated with the same externalID within this request. */
  private async createAtProvider(params: DestinationParams): Promise<Destination> {
    let sawUnknown = false;
    for (let round = 1; ; round++) {
      try {
        return await this.wallets.createDestination(params);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        sawUnknown ||= error.kind === 'unknown_outcome';
        const repeatable = error.kind === 'unknown_outcome' || error.kind === 'not_executed';
        if (!repeatable || round >= CREATE_ROUNDS) {
          // A refusal after an unknown outcome may be caused by the first attempt having worked.
          throw sawUnknown && error.kind !== 'unknown_outcome' ? ProviderError.stillUnknown(error) : error;
        }
        await sleep(CREATE_ROUND_PAUSE_MS);
      }
    }
  }

  /**
   * Claims one due destination and follows it now, on the engine's pool (so a claim whose hand-back failed is still
   * swept). Undefined when it is not due or another process holds it. One read per destination at a time here.
   */
  private followNow(id: string): Promise<PayoutDestination | undefined> {
    const inFlight = this.reads.get(id);
    if (inFlight) return inFlight;
    let claimed = false;
    let followed: PayoutDestination | undefined;
    const work = this.queue
      .drain(
        async () => {
          if (claimed) return [];
          claimed = true;
          return this.queue.claim(1, { onlyId: id });
        },
        async (claim) => {
          followed = await this.follow(claim);
        },
        { concurrency: 1, batchSize: 1, stopping: () => this.shutdown.isShuttingDown },
      )
      .then(() => followed);
    return this.track(id, work);
  }

  private track(id: string, work: Promise<PayoutDestination | undefined>): Promise<PayoutDestination | undefined> {
    // A lost lease (the engine's rule, LeasedQueue.lost: counted, nothing more written) means another process holds
    // the destination and reads it: for whoever waits on this read, nothing was read here.
    const tracked = work
      .catch((error: unknown) => {
        if (error instanceof LeaseLostError) return undefined;
        throw error;
      })
      .finally(() => this.reads.delete(id));
    this.reads.set(id, tracked);
    return tracked;
  }

  /**
   * Operation 12 for a destination this process claimed. Every write quotes the claim's fence and hands the claim
   * back; on Authorized, the payouts waiting for it are made due in the transaction of that fenced write, so a
   * holder that lost its claim changes nothing (LeaseLostError ends the step). Answers the destination as written;
   * undefined when there was nothing to read.
   */
  private async follow(claim: Claim<PayoutDestination>): Promise<PayoutDestination | undefined> {
    const destination = claim.row;
    if (destination.status !== 'Unauthorized' || destination.providerDestinationId === null) {
      await this.queue.write(claim, { nextSyncAt: null }, { release: true });
      return undefined;
    }
    let remote: Destination;
    try {
      remote = await this.wallets.getDestination(destination.providerDestinationId);
    } catch (error) {
      await this.queue.write(claim, { nextSyncAt: this.nextPoll() }, { release: true });
      throw error;
    }
    if (remote.status === 'Authorized') {
      const authorizedAt = this.businessClock.now();
      const changes = { status: 'Authorized' as const, nextSyncAt: null, authorizedAt };
      await this.payouts.transaction(async (em) => {
        await this.queue.write(claim, changes, { release: true, em });
        await this.payouts.makeDueForDestination(destination.id, this.clock.now(), authorizedAt, em);
      });
      this.logger.log(`Destination ${destination.id} is Authorized`);
      return { ...destination };
    }
    await this.queue.write(claim, { nextSyncAt: this.nextPoll() }, { release: true });
    return { ...destination };
  }

  /** Real time of the next read while it stays Unauthorized. */
  private nextPoll(): Date {
    return new Date(this.clock.now().getTime() + this.tuning.destinationPollMs);
  }
}
