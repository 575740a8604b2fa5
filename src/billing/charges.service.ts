import { ConflictException, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Not } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { Page, paginate } from '../common/http/pagination';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeProcessorService } from './charge-processor.service';
import { ChargeQueueService } from './charge-queue.service';
import { ListChargesQueryDto } from './list-charges-query.dto';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';

/** Charges that can be dropped when a subscription is canceled: no payment is in flight at the provider. */
const CANCELABLE_CHARGE_STATUSES = ['pending', 'retrying', 'failed'] as const;

@Injectable()
export class ChargesService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly queue: ChargeQueueService,
    private readonly processor: ChargeProcessorService,
    private readonly lifecycle: SubscriptionLifecycleService,
  ) {}

  /** A subscription that ends drops its charges with no payment in flight, in the transaction that ends it. */
  onModuleInit(): void {
    this.lifecycle.onCancel(async (em, subscriptionId, keepChargeId) => {
      await em.update(
        Charge,
        { subscriptionId, status: In([...CANCELABLE_CHARGE_STATUSES]), ...(keepChargeId ? { id: Not(keepChargeId) } : {}) },
        { status: 'canceled', step: 'done', nextAttemptAt: null, leaseOwner: null },
      );
    });
  }

  async get(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[] }> {
    const charge = await this.dataSource.getRepository(Charge).findOneBy({ id });
    if (!charge) throw new NotFoundException(`No charge ${id}`);
    return { charge, attempts: await this.dataSource.getRepository(ChargeAttempt).findBy({ chargeId: id }) };
  }

  async list(query: ListChargesQueryDto): Promise<{ page: Page<Charge>; attempts: Map<string, ChargeAttempt[]> }> {
    const qb = this.dataSource.getRepository(Charge).createQueryBuilder('ch');
    if (query.status) qb.andWhere('ch.status = :status', { status: query.status });
    if (query.subscriptionId) qb.andWhere('ch.subscriptionId = :subscriptionId', { subscriptionId: query.subscriptionId });
    if (query.customerId) qb.andWhere('ch.customerId = :customerId', { customerId: query.customerId });
    const page = await paginate(qb, query);
    const attempts = new Map<string, ChargeAttempt[]>();
    if (page.items.length > 0) {
      for (const a of await this.dataSource.getRepository(ChargeAttempt).findBy({ chargeId: In(page.items.map((c) => c.id)) })) {
        attempts.set(a.chargeId, [...(attempts.get(a.chargeId) ?? []), a]);
      }
    }
    return { page, attempts };
  }

  /** Attempts the charge now (outside the ladder): refused while it is settled, in flight or canceled. */
  async retry(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[] }> {
    const now = this.clock.now();
    const result = await this.dataSource.query(
      `UPDATE charges SET status = 'retrying', next_attempt_at = $2, not_before = NULL,
              step = CASE WHEN provider_invoice_id IS NULL THEN 'create_invoice'
                          WHEN step IN ('awaiting_card', 'done') THEN 'create_payment' ELSE step END,
              declined_binding_id = NULL
        WHERE id = $1 AND status IN ('pending', 'retrying', 'failed')
          AND lease_owner IS NULL`,
      [id, now],
    );
    if (result[1] === 0) {
      const { charge } = await this.get(id);
      throw new ConflictException(`A ${charge.status} charge cannot be retried now`);
    }
    const [claim] = await this.queue.claim(now, 1, id);
    if (claim) await this.processor.process(claim);
    return this.get(id);
  }
}
