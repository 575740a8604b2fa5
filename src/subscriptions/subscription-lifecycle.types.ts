import type { EntityManager } from 'typeorm';
import type { Plan } from '../plans/plan.entity';
import type { Subscription } from './subscription.entity';

/**
 * Told, in the same transaction, that a subscription ended now; billing drops its open charges here
 * (but `keepChargeId`, the one being settled). Subscriptions never write another module's tables.
 */
export type CancelListener = (em: EntityManager, subscriptionId: string, keepChargeId?: string) => Promise<void>;

/** Told, in the transaction that creates a subscription, of it and its plan (billing adds the plan's setup fee there). */
export type CreatedListener = (em: EntityManager, subscription: Subscription, plan: Plan, now: Date) => Promise<void>;

/** Told, in the same transaction, that a subscription ended, now or at its period end (its pending items are dropped). */
export type EndListener = (em: EntityManager, subscriptionId: string, now: Date) => Promise<void>;

export type ChangeEventType = 'changed' | 'change_scheduled' | 'change_dropped';

/** A new billing period, as billing materialized it. */
export interface StartedPeriod {
  index: number;
  start: Date;
  end: Date;
  /** The charge made for it, when this pass made one (a race may have made it already). */
  charge?: { id: string; amount: number; discountAmount: number };
  /** The charge made took the subscription's coupon: a period it covered is counted down. */
  discounted?: boolean;
}
