import { ConflictException, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { Page } from '../common/http/pagination';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeProcessorService } from './charge-processor.service';
import { ChargeQueueService } from './charge-queue.service';
import { ChargesRepository } from './charges.repository';
import { ListChargesQueryDto } from './list-charges-query.dto';

@Injectable()
export class ChargesService implements OnModuleInit {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly clock: Clock,
    private readonly queue: ChargeQueueService,
    private readonly processor: ChargeProcessorService,
    private readonly lifecycle: SubscriptionLifecycleService,
  ) {}

  /** A subscription that ends drops its charges with no payment in flight, in the transaction that ends it. */
  onModuleInit(): void {
    this.lifecycle.onCancel((em, subscriptionId, keepChargeId) => this.charges.cancelOpen(em, subscriptionId, this.clock.now(), keepChargeId));
  }

  async get(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[] }> {
    const charge = await this.charges.findById(id);
    if (!charge) throw new NotFoundException(`No charge ${id}`);
    return { charge, attempts: await this.attempts.ofCharge(id) };
  }

  async list(query: ListChargesQueryDto): Promise<{ page: Page<Charge>; attempts: Map<string, ChargeAttempt[]> }> {
    const page = await this.charges.list(query);
    return { page, attempts: await this.attempts.ofCharges(page.items.map((c) => c.id)) };
  }

  /** Attempts the charge now (outside the ladder): refused while it is settled, in flight or canceled. */
  async retry(id: string): Promise<{ charge: Charge; attempts: ChargeAttempt[] }> {
    const now = this.clock.now();
    if (!(await this.charges.requeueForRetry(id, now))) {
      const { charge } = await this.get(id);
      throw new ConflictException(`A ${charge.status} charge cannot be retried now`);
    }
    const [claim] = await this.queue.claim(now, 1, id);
    if (claim) await this.processor.process(claim);
    return this.get(id);
  }
}
