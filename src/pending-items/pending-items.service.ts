import { ConflictException, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { withErrorCode } from '../common/errors/coded-error';
import { ListOptions, Page } from '../common/http/pagination';
import { CustomersService } from '../customers/customers.service';
import { ListPendingItemsQueryDto } from './list-pending-items-query.dto';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { PendingItem } from './pending-item.entity';
import { NewPendingItem, PendingItemsRepository } from './pending-items.repository';

/**
 * Money a subscription's next period charge collects: the merchant's items (`when: next_renewal`) and the setup fee of
 * a subscription without a trial. Billing adds them to that charge's cart and marks them billed in the transaction
 * that makes it; a subscription that ends drops the ones still pending in the transaction that ends it.
 */
@Injectable()
export class PendingItemsService implements OnModuleInit {
  constructor(
    private readonly items: PendingItemsRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly customers: CustomersService,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onEnd((em, subscriptionId, now) => this.items.cancelPendingOf(em, subscriptionId, now));
  }

  /** Adds an item in the caller's transaction; null when a unique rule holds one like it already (its id, reference, setup fee). */
  add(em: EntityManager, item: NewPendingItem, now: Date): Promise<PendingItem | null> {
    return this.items.insert(em, item, now);
  }

  findById(id: string, em?: EntityManager): Promise<PendingItem | null> {
    return this.items.findById(id, em);
  }

  findByReference(em: EntityManager, reference: string): Promise<PendingItem | null> {
    return this.items.findByReference(em, reference);
  }

  async get(id: string): Promise<PendingItem> {
    const item = await this.items.findById(id);
    if (!item) throw new NotFoundException(`No pending item ${id}`);
    return item;
  }

  /** A subscription's items, newest first, whatever their status; 404 for an unknown subscription. */
  async list(subscriptionId: string, options: ListOptions): Promise<Page<PendingItem>> {
    await this.subscriptions.get(subscriptionId);
    return this.items.page(subscriptionId, options);
  }

  /** A customer's items, newest first, only those in `status` when given; 404 for an unknown customer. */
  async listOfCustomer(customerId: string, query: ListPendingItemsQueryDto): Promise<Page<PendingItem>> {
    if (!(await this.customers.findStanding(customerId))) throw new NotFoundException(`customer ${customerId} not found`);
    return this.items.pageOfCustomer(customerId, query.status, query);
  }

  /**
   * Drops an item still pending; one dropped already is answered as it is. A billed one cannot be (409 naming its
   * charge): a billing pass that holds the item makes this wait, and then it is billed.
   */
  async drop(id: string): Promise<PendingItem> {
    const item = await this.get(id);
    if (item.status === 'pending' && (await this.items.cancel(id, this.clock.now()))) return this.get(id);
    const now = await this.get(id);
    if (now.status === 'canceled') return now;
    throw withErrorCode(new ConflictException(`Pending item ${id} is billed already, on charge ${now.chargeId}: refund that charge instead`), 'state_conflict');
  }

  /** The pending items of these subscriptions by subscription, oldest first, locked until the caller's transaction ends. */
  async lockPendingOf(em: EntityManager, subscriptionIds: string[]): Promise<Map<string, PendingItem[]>> {
    const bySubscription = new Map<string, PendingItem[]>();
    for (const item of await this.items.lockPendingOf(em, subscriptionIds)) {
      bySubscription.set(item.subscriptionId, [...(bySubscription.get(item.subscriptionId) ?? []), item]);
    }
    return bySubscription;
  }

  /** Marks items billed by the charges that carry them, in the transaction that makes those charges. */
  markBilled(em: EntityManager, billed: { itemId: string; chargeId: string }[], now: Date): Promise<void> {
    return this.items.markBilled(em, billed, now);
  }
}
