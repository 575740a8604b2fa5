import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock/clock';
import { parseDuration } from '../common/duration';
import { Page, paginate } from '../common/http/pagination';
import { invalidField } from '../common/errors/coded-error';
import { AppConfig } from '../config/app-config';
import { CreatePlanDto } from './create-plan.dto';
import { ListPlansQueryDto } from './list-plans-query.dto';
import { Plan, PlanDunning, PlanLine } from './plan.entity';
import { PlanDunningDto } from './plan-dunning.dto';
import { UpdatePlanDto } from './update-plan.dto';

/** The dunning that applies to a plan's subscriptions: the plan's own, else the environment's. */
export interface EffectiveDunning {
  strategy: 'fixed' | 'smart';
  /** Fixed: the ladder. Smart: empty (the rules time each retry). */
  retryDelaysMs: number[];
  retryDelays: string[];
  /** How long dunning may last from the first decline: the whole ladder (fixed) or maxDays (smart). */
  windowMs: number;
  /** Smart: the days of `windowMs`; null when fixed. */
  maxDays: number | null;
  finalAction: 'cancel' | 'unpaid';
}

/** Smart dunning gives up this many days after the first decline unless the plan says otherwise. */
export const DEFAULT_MAX_DAYS = 21;

/** Plans are price lists: created, renamed, archived; never repriced (a new price is a new plan). */
@Injectable()
export class PlansService {
  constructor(
    @InjectRepository(Plan) private readonly plans: Repository<Plan>,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers the plan made with it. */
  async create(dto: CreatePlanDto, reservedId?: string): Promise<Plan> {
    const made = reservedId === undefined ? null : await this.plans.findOneBy({ id: reservedId });
    if (made) return made;
    const inForce = `one of the VAT rates in force (BILLING_TAX_RATES): ${this.config.taxRates.join(', ')}`;
    dto.lines.forEach((line, index) => {
      if (line.taxRate !== undefined && !this.config.taxRates.includes(line.taxRate)) {
        throw invalidField(`lines.${index}.taxRate`, `lines.${index}.taxRate must be ${inForce}`);
      }
    });
    if (dto.setupFeeTaxRate !== undefined && !this.config.taxRates.includes(dto.setupFeeTaxRate)) throw invalidField('setupFeeTaxRate', `setupFeeTaxRate must be ${inForce}`);
    const lines: PlanLine[] = dto.lines.map((line) => ({
      product: line.product,
      price: line.price,
      quantity: line.quantity ?? 1,
      ...(line.taxRate !== undefined ? { taxRate: line.taxRate } : {}),
    }));
    // The DTO already bounds the total to 10^15, so this sum of safe integers is exact.
    const amount = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
    // Timestamps come from the clock (test clock included) with millisecond precision, which is also
    // what the list cursor carries: a microsecond database default could skip rows between pages.
    const now = this.clock.now();
    const plan = this.plans.create({
      ...(reservedId !== undefined && { id: reservedId }),
      name: dto.name,
      product: dto.product,
      description: dto.description ?? null,
      currency: dto.currency,
      interval: dto.interval,
      intervalCount: dto.intervalCount ?? 1,
      trialDays: dto.trialDays ?? 0,
      lines,
      amount,
      setupFee: dto.setupFee ?? null,
      setupFeeTaxRate: dto.setupFeeTaxRate ?? null,
      shopId: dto.shopId ?? this.config.providerShopId,
      dunning: dto.dunning ? toDunning(dto.dunning) : null,
      metadata: dto.metadata ?? {},
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
    return this.plans.save(plan);
  }

  /** Newest first, keyset-paginated; optionally only active or only archived plans. */
  list(query: ListPlansQueryDto): Promise<Page<Plan>> {
    const builder = this.plans.createQueryBuilder('plan');
    if (query.status) builder.where('plan.status = :status', { status: query.status });
    return paginate(builder, query);
  }

  /** Whether every rate on the plan's lines (and its setup fee) is still in force (BILLING_TAX_RATES): else move its subscribers with a plan migration. */
  taxRatesCurrent(plan: Pick<Plan, 'lines' | 'setupFeeTaxRate'>): boolean {
    const rates = [...plan.lines.map((line) => line.taxRate), plan.setupFeeTaxRate ?? undefined];
    return rates.every((rate) => rate === undefined || this.config.taxRates.includes(rate));
  }

  /**
   * The plan, archived or not; 404 when there is none. Inside a transaction, read it with that transaction's `em`: on
   * the embedded database, which runs one transaction at a time, a read on another connection would wait for ever.
   */
  async get(id: string, em?: EntityManager): Promise<Plan> {
    const plan = await (em ? em.getRepository(Plan) : this.plans).findOneBy({ id });
    if (!plan) throw new NotFoundException(`plan ${id} not found`);
    return plan;
  }

  /** Several plans in one read (the billing engine's batches), in the caller's transaction if given; unknown ids are left out. */
  getMany(ids: string[], em?: EntityManager): Promise<Plan[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (em ? em.getRepository(Plan) : this.plans).findBy({ id: In(ids) });
  }

  /**
   * Changes name, description, dunning or metadata. An archived plan can still be edited: its existing
   * subscriptions go on and follow its dunning. An empty body changes nothing (not even updatedAt).
   */
  async update(id: string, dto: UpdatePlanDto): Promise<Plan> {
    const changes: Partial<Plan> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.dunning !== undefined) changes.dunning = dto.dunning ? toDunning(dto.dunning) : null;
    if (dto.metadata !== undefined) changes.metadata = dto.metadata;
    if (Object.keys(changes).length === 0) return this.get(id);
    // One UPDATE of just these columns: a concurrent archive is never overwritten by a stale read.
    // (TypeORM's deep-partial type cannot express Record<string, unknown>; the values are plain Plan fields.)
    const result = await this.plans.update({ id }, { ...changes, updatedAt: this.clock.now() } as QueryDeepPartialEntity<Plan>);
    if (!result.affected) throw new NotFoundException(`plan ${id} not found`);
    return this.get(id);
  }

  /** No new subscriptions from now on; existing ones go on. Archiving an archived plan changes nothing. */
  async archive(id: string): Promise<Plan> {
    await this.plans.update({ id, status: 'active' }, { status: 'archived', updatedAt: this.clock.now() });
    return this.get(id);
  }

  /** The plan a new subscription may use: 404 when unknown, 422 when archived. */
  async getForSubscription(id: string): Promise<Plan> {
    const plan = await this.get(id);
    if (plan.status === 'archived') {
      throw new UnprocessableEntityException(`plan ${id} is archived: subscribe to an active plan`);
    }
    return plan;
  }

  /** The plan's own dunning when it has one, else DUNNING_STRATEGY / DUNNING_RETRY_DELAYS / DUNNING_FINAL_ACTION. */
  effectiveDunning(plan: Plan): EffectiveDunning {
    const own = plan.dunning;
    const finalAction = own?.finalAction ?? this.config.dunningFinalAction;
    const strategy = own ? (own.strategy ?? (own.retryDelays ? 'fixed' : this.config.dunningStrategy)) : this.config.dunningStrategy;
    if (strategy === 'smart') {
      const maxDays = own?.maxDays ?? DEFAULT_MAX_DAYS;
      return { strategy, retryDelays: [], retryDelaysMs: [], windowMs: maxDays * 86_400_000, maxDays, finalAction };
    }
    const retryDelays = own?.retryDelays ? [...own.retryDelays] : [...this.config.dunningRetryDelays];
    const retryDelaysMs = retryDelays.map(parseDuration);
    return { strategy, retryDelays, retryDelaysMs, windowMs: retryDelaysMs.reduce((a, b) => a + b, 0), maxDays: null, finalAction };
  }
}

/** A plain object for the jsonb column (not the DTO instance with its class). */
function toDunning(dto: PlanDunningDto): PlanDunning {
  return {
    ...(dto.strategy !== undefined && { strategy: dto.strategy }),
    ...(dto.retryDelays !== undefined && { retryDelays: [...dto.retryDelays] }),
    ...(dto.maxDays !== undefined && { maxDays: dto.maxDays }),
    finalAction: dto.finalAction,
  };
}
