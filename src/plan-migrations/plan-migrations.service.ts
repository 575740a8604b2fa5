import { Injectable, Logger, NotFoundException, OnApplicationBootstrap, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../common/clock/clock';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { ShutdownSignal } from '../common/shutdown-signal';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { SubscriptionRepricingService } from '../subscriptions/subscription-repricing.service';
import { Claim, LeasedQueue } from '../work/leased-queue';
import { LeasedQueues } from '../work/leased-queues.service';
import { WorkRunnerService } from '../work/work-runner.service';
import { WorkerRegistryService } from '../work/worker-registry.service';
import { CreatePlanMigrationDto, DEFAULT_NOTICE_DAYS } from './create-plan-migration.dto';
import { PlanMigration } from './plan-migration.entity';
import { PlanMigrationsRepository } from './plan-migrations.repository';

export const PLAN_MIGRATIONS_QUEUE = 'plan-migrations';
/** Subscriptions walked per transaction: a few statements each, whatever the size. */
const BATCH = 500;

/**
 * Plan migrations: the request checks the plans and records the migration (answered at once); the walk over the
 * plan's subscriptions runs on the work engine, one batch per transaction under the claim's fence, so it goes on
 * after a restart, on any replica, and no subscription is moved or counted twice.
 */
@Injectable()
export class PlanMigrationsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(PlanMigrationsService.name);
  private readonly queue: LeasedQueue<PlanMigration>;

  constructor(
    private readonly migrations: PlanMigrationsRepository,
    private readonly plans: PlansService,
    private readonly repricing: SubscriptionRepricingService,
    private readonly clock: Clock,
    private readonly runner: WorkRunnerService,
    private readonly registry: WorkerRegistryService,
    private readonly shutdown: ShutdownSignal,
    queues: LeasedQueues,
  ) {
    this.queue = queues.create<PlanMigration>({ name: PLAN_MIGRATIONS_QUEUE, entity: PlanMigration, dueColumn: 'next_run_at', dueAgainst: 'database', hasNotBefore: false });
  }

  onApplicationBootstrap(): void {
    this.runner.start(PLAN_MIGRATIONS_QUEUE, () => this.workDue());
  }

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers the migration made with it. */
  async create(planId: string, dto: CreatePlanMigrationDto, reservedId?: string): Promise<PlanMigration> {
    const made = reservedId === undefined ? null : await this.migrations.findById(reservedId);
    if (made) return made;
    const from = await this.plans.get(planId);
    const to = await this.target(from, dto.toPlanId);
    const now = this.clock.now();
    const id = reservedId ?? randomUUID();
    await this.migrations.transaction(async (em) => {
      const cutoffSeq = await this.repricing.newestSeq(em);
      await this.migrations.insert(em, {
        id,
        fromPlanId: from.id,
        toPlanId: to.id,
        noticeDays: dto.noticeDays ?? DEFAULT_NOTICE_DAYS,
        quantityRule: dto.quantityRule ?? 'keep',
        status: 'running',
        cutoffSeq,
        createdAt: now,
        updatedAt: now,
      });
    });
    this.startWalking();
    return (await this.migrations.findById(id)) as PlanMigration;
  }

  async get(id: string): Promise<PlanMigration> {
    const migration = await this.migrations.findById(id);
    if (!migration) throw new NotFoundException(`No plan migration ${id}`);
    return migration;
  }

  /** Works every migration due until none is left; answers how many batches it walked. */
  workDue(): Promise<number> {
    return this.queue.drain(
      (limit) => this.queue.claim(limit),
      (claim) => this.walkBatch(claim),
      { concurrency: 1, batchSize: 1, stopping: () => this.shutdown.isShuttingDown },
    );
  }

  /** The plan the subscribers move to: another one, active, in the same currency and shop. */
  private async target(from: Plan, toPlanId: string): Promise<Plan> {
    if (toPlanId === from.id) throw invalidField('toPlanId', 'toPlanId must name another plan than the one whose subscribers move');
    const to = await this.plans.get(toPlanId).catch((error: unknown) => {
      if (error instanceof NotFoundException) throw withErrorCode(new NotFoundException(`toPlanId ${toPlanId} names no plan`), 'not_found', { field: 'toPlanId' });
      throw error;
    });
    const refuse = (message: string) => withErrorCode(new UnprocessableEntityException(message), 'business_rule', { field: 'toPlanId' });
    if (to.status === 'archived') throw refuse(`toPlanId names an archived plan: move the subscribers to an active one`);
    if (to.currency !== from.currency || to.shopId !== from.shopId) throw refuse(`toPlanId must name a plan in ${from.currency} of shop ${from.shopId}, like the plan migrated`);
    return to;
  }

  /** The walk starts at once: on the engine's loop when this process runs the scheduler, else in the background here. */
  private startWalking(): void {
    if (this.runner.enabled) {
      this.runner.kick(PLAN_MIGRATIONS_QUEUE);
      return;
    }
    void this.registry.track(this.workDue()).catch((error: unknown) => this.logger.error({ err: error }, 'Plan migration walk failed; it goes on at the next start'));
  }

  /** One batch: its subscriptions moved and the migration's cursor and counts, in one transaction under the fence. */
  private async walkBatch(claim: Claim<PlanMigration>): Promise<void> {
    const m = claim.row;
    // The engine's loop may run before any request or pass has read the shared test clock.
    await this.clock.refresh();
    const now = this.clock.now();
    await this.migrations.transaction(async (em) => {
      const [from, to] = [await this.plans.get(m.fromPlanId, em), await this.plans.get(m.toPlanId, em)];
      const outcome = await this.repricing.scheduleBatch(em, {
        migrationId: m.id,
        from,
        to,
        noticeDays: m.noticeDays,
        afterSeq: m.cursorSeq,
        cutoffSeq: m.cutoffSeq,
        limit: BATCH,
        now,
      });
      const done = outcome.walked < BATCH;
      await this.queue.write(
        claim,
        {
          cursorSeq: outcome.lastSeq ?? m.cursorSeq,
          scheduledCount: m.scheduledCount + outcome.scheduled,
          skippedCount: m.skippedCount + outcome.skipped,
          status: done ? 'done' : 'running',
          completedAt: done ? now : null,
          updatedAt: now,
        },
        { em, release: true, dueInMs: done ? null : 0 },
      );
      if (done) this.logger.log(`Plan migration ${m.id} is done: ${m.scheduledCount + outcome.scheduled} subscriptions moved, ${m.skippedCount + outcome.skipped} left alone`);
    });
  }
}
