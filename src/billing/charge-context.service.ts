import { Injectable } from '@nestjs/common';
import { CustomerPayer } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { ClaimedCharge } from './charge-queue';

/** What working a charge needs besides the charge itself. */
export interface ChargeContext {
  plan: Plan;
  payer: CustomerPayer;
  subscription: Subscription;
}

/**
 * The subscription, plan and payer of claimed charges, read once per claim and outside any transaction: a whole
 * claimed batch in three reads (one per table), so the hot path pays a fraction of a round trip per charge.
 */
@Injectable()
export class ChargeContextService {
  private readonly contexts = new WeakMap<ClaimedCharge, Promise<ChargeContext>>();

  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly plans: PlansService,
    private readonly customers: CustomersService,
  ) {}

  /** Reads the context of every charge of a claimed batch at once. */
  async prepare(batch: ClaimedCharge[]): Promise<void> {
    const loading = this.load(batch);
    for (const claim of batch) {
      const context = loading.then((all) => found(all, claim));
      // A failed read is seen (and handled) by the charge's own step, not here.
      context.catch(() => undefined);
      this.contexts.set(claim, context);
    }
    await loading.catch(() => undefined);
  }

  /** The claim's context, read now when its batch was not prepared (a charge retried by hand). */
  of(claim: ClaimedCharge): Promise<ChargeContext> {
    let context = this.contexts.get(claim);
    if (!context) {
      context = this.load([claim]).then((all) => found(all, claim));
      this.contexts.set(claim, context);
    }
    return context;
  }

  private async load(batch: ClaimedCharge[]): Promise<Map<ClaimedCharge, ChargeContext>> {
    const unique = <T>(values: T[]) => [...new Set(values)];
    const [subscriptions, payers] = await Promise.all([
      this.subscriptions.getMany(unique(batch.map((c) => c.row.subscriptionId))),
      this.customers.payersOf(unique(batch.map((c) => c.row.customerId))),
    ]);
    const plans = await this.plans.getMany(unique(subscriptions.map((s) => s.planId)));
    const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]));
    const payerById = new Map(payers.map((p) => [p.id, p]));
    const planById = new Map(plans.map((p) => [p.id, p]));
    const contexts = new Map<ClaimedCharge, ChargeContext>();
    for (const claim of batch) {
      const subscription = subscriptionById.get(claim.row.subscriptionId);
      const payer = payerById.get(claim.row.customerId);
      const plan = subscription && planById.get(subscription.planId);
      if (subscription && payer && plan) contexts.set(claim, { subscription, payer, plan });
    }
    return contexts;
  }
}

function found(contexts: Map<ClaimedCharge, ChargeContext>, claim: ClaimedCharge): ChargeContext {
  const context = contexts.get(claim);
  if (!context) throw new Error(`Charge ${claim.row.id}: its subscription, customer or plan is missing`);
  return context;
}
