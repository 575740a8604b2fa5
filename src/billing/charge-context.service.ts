import { Injectable } from '@nestjs/common';
import { CustomerPayer } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { DunningService } from '../dunning/dunning.service';
import type { DunningPolicy } from '../dunning/dunning-policy';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { ClaimedCharge } from './charge-queue';

/** What working a subscription's charge needs besides the charge itself. */
export interface ChargeContext {
  plan: Plan;
  payer: CustomerPayer;
  subscription: Subscription;
  /** How the subscription's declined charges are collected. */
  dunning: DunningPolicy;
}

/** What working any charge needs: a one-off may name no subscription (and so no plan). */
export interface AnyChargeContext {
  plan: Plan | null;
  payer: CustomerPayer;
  subscription: Subscription | null;
  dunning: DunningPolicy | null;
}

/**
 * The subscription, plan and payer of claimed charges, read once per claim and outside any transaction: a whole
 * claimed batch in three reads (one per table), so the hot path pays a fraction of a round trip per charge.
 */
@Injectable()
export class ChargeContextService {
  private readonly contexts = new WeakMap<ClaimedCharge, Promise<AnyChargeContext>>();

  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly plans: PlansService,
    private readonly customers: CustomersService,
    private readonly dunning: DunningService,
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
  async of(claim: ClaimedCharge): Promise<ChargeContext> {
    const { plan, payer, subscription, dunning } = await this.any(claim);
    if (!plan || !subscription || !dunning) throw new Error(`Charge ${claim.row.id}: its subscription or plan is missing`);
    return { plan, payer, subscription, dunning };
  }

  /** Like `of`, for any charge: a one-off's subscription and plan are null when it names none. */
  any(claim: ClaimedCharge): Promise<AnyChargeContext> {
    let context = this.contexts.get(claim);
    if (!context) {
      context = this.load([claim]).then((all) => found(all, claim));
      this.contexts.set(claim, context);
    }
    return context;
  }

  private async load(batch: ClaimedCharge[]): Promise<Map<ClaimedCharge, AnyChargeContext>> {
    const unique = <T>(values: T[]) => [...new Set(values)];
    const [subscriptions, payers] = await Promise.all([
      this.subscriptions.getMany(unique(batch.flatMap((c) => (c.row.subscriptionId === null ? [] : [c.row.subscriptionId])))),
      this.customers.payersOf(unique(batch.map((c) => c.row.customerId))),
    ]);
    const plans = await this.plans.getMany(unique(subscriptions.map((s) => s.planId)));
    const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]));
    const payerById = new Map(payers.map((p) => [p.id, p]));
    const planById = new Map(plans.map((p) => [p.id, p]));
    const contexts = new Map<ClaimedCharge, AnyChargeContext>();
    for (const claim of batch) {
      const subscription = claim.row.subscriptionId === null ? null : (subscriptionById.get(claim.row.subscriptionId) ?? null);
      const payer = payerById.get(claim.row.customerId);
      const plan = subscription && (planById.get(subscription.planId) ?? null);
      // A one-off without a subscription needs only its payer; every other charge its subscription and plan too.
      const dunning = plan && subscription ? this.dunning.policyFor(plan, subscription.id) : null;
      if (payer && (plan || (claim.row.kind === 'one_off' && claim.row.subscriptionId === null))) contexts.set(claim, { subscription, payer, plan, dunning });
    }
    return contexts;
  }
}

function found(contexts: Map<ClaimedCharge, AnyChargeContext>, claim: ClaimedCharge): AnyChargeContext {
  const context = contexts.get(claim);
  if (!context) throw new Error(`Charge ${claim.row.id}: its subscription, customer or plan is missing`);
  return context;
}
