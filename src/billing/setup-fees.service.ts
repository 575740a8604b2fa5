import { Injectable, OnModuleInit, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { withErrorCode } from '../common/errors/coded-error';
import { PendingItemsService } from '../pending-items/pending-items.service';
import { Plan } from '../plans/plan.entity';
import { MAX_AMOUNT } from '../plans/plan-validation';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { ChargesRepository } from './charges.repository';
import { setupFeeInvoiceExternalId } from './external-ids';
import { CartLine, labelled } from './invoice-cart';
import { OneOffChargesRepository } from './one-off-charges.repository';

/**
 * A plan's setup fee, charged once per subscription (not per seat), decided in the transaction that creates the
 * subscription: without a trial it is a pending item, an extra cart line of the subscription's first period charge;
 * with a trial (whose periods are free) it is a charge of kind `one_off` due at the subscription's start, which waits
 * for the customer's card if there is none yet. A later change of plan charges no setup fee.
 */
@Injectable()
export class SetupFeesService implements OnModuleInit {
  constructor(
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly oneOffs: OneOffChargesRepository,
    private readonly charges: ChargesRepository,
    private readonly pendingItems: PendingItemsService,
    private readonly balances: BalancesService,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onCreated((em, subscription, plan, now) => this.add(em, subscription, plan, now));
  }

  private async add(em: EntityManager, s: Subscription, plan: Plan, now: Date): Promise<void> {
    if (!plan.setupFee) return;
    // The first paid period's invoice carries the fee beside the plan: together they stay within the limit.
    if (plan.amount * s.quantity + plan.setupFee > MAX_AMOUNT) {
      throw withErrorCode(
        new UnprocessableEntityException(`quantity: ${s.quantity} seats of this plan and its setup fee of ${plan.setupFee} pass ${MAX_AMOUNT} minor units on the first invoice`),
        'business_rule',
        { field: 'quantity' },
      );
    }
    const line: CartLine = { product: labelled(plan.product, ', setup fee'), price: plan.setupFee, quantity: 1, ...(plan.setupFeeTaxRate ? { taxRate: plan.setupFeeTaxRate } : {}) };
    const fee = { id: randomUUID(), subscriptionId: s.id, customerId: s.customerId, currency: plan.currency, lines: [line], amount: plan.setupFee, description: `Setup fee, ${plan.name}`, reference: null };
    if (!s.trialEndsAt) {
      await this.pendingItems.add(em, { ...fee, source: 'setup_fee' }, now);
      return;
    }
    await this.oneOffs.insert(em, { ...fee, invoiceExternalId: setupFeeInvoiceExternalId(s.id), dueAt: s.startAt }, now);
    // As for any charge, the credit balance is applied when it is made.
    const paid = await this.balances.applyToCharge(em, fee, now);
    if (paid > 0) await this.charges.recordPaidFromBalance(em, fee.id, paid, now);
  }
}
