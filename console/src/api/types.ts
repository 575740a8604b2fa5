import type { components } from './openapi.gen';

/** The admin API's objects, by their names in docs/openapi.json. */
type Schemas = components['schemas'];

export type Customer = Schemas['Customer'];
export type Binding = Schemas['Binding'];
export type Subscription = Schemas['Subscription'];
export type SubscriptionEvent = Schemas['SubscriptionEvent'];
export type Charge = Schemas['Charge'];
export type ChargeDunning = Schemas['ChargeDunning'];
export type Plan = Schemas['Plan'];
export type CreatePlan = Schemas['CreatePlan'];
export type Payout = Schemas['Payout'];
export type PayoutBatch = Schemas['PayoutBatch'];
export type MerchantEvent = Schemas['Event'];
/** An event as the list answers it: with what it is about, by name. */
export type ListedEvent = Schemas['EventListItem'];
export type PendingItem = Schemas['PendingItem'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookAttempt = Schemas['WebhookDeliveryAttempt'];
export type Dashboard = Schemas['Dashboard'];
export type RevenueInterval = Schemas['RevenueInterval'];

/** One page of any list: newest first, `nextCursor` null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | null;
}

export type ChangeFigures = Schemas['ChangeFigures'];
export type Refund = Schemas['Refund'];
export type Coupon = Schemas['Coupon'];
export type BalanceEntry = Schemas['BalanceEntry'];
export type SubscriptionDiscount = Schemas['SubscriptionDiscount'];
export type CreateCoupon = Schemas['CreateCoupon'];
export type ApiKey = Schemas['ApiKey'];
