import { BillingSchema1795241320428 } from './1795241320428-BillingSchema';
import { Payouts1795241900000 } from './1795241900000-Payouts';
import { EngineWorkIndexes1795242041163 } from './1795242041163-EngineWorkIndexes';
import { OrderedTimestamps1795242881320 } from './1795242881320-OrderedTimestamps';
import { PayoutCursorPrecision1795243600000 } from './1795243600000-PayoutCursorPrecision';
import { InvoiceDueDateIntent1795247808831 } from './1795247808831-InvoiceDueDateIntent';
import { WorkEngineHeartbeats1795534434716 } from './1795534434716-WorkEngineHeartbeats';
import { ListOrderAndFilters1795593530175 } from './1795593530175-ListOrderAndFilters';
import { BusinessTimestamps1795593859416 } from './1795593859416-BusinessTimestamps';
import { BindingInteraction1795594114811 } from './1795594114811-BindingInteraction';
import { ProviderWebhooks1795596379473 } from './1795596379473-ProviderWebhooks';
import { MerchantEventsAndWebhooks1795598240433 } from './1795598240433-MerchantEventsAndWebhooks';
import { IdempotentResourceIds1795644453949 } from './1795644453949-IdempotentResourceIds';
import { ConsoleSessions1795644538142 } from './1795644538142-ConsoleSessions';
import { PayoutReferences1795645124886 } from './1795645124886-PayoutReferences';
import { OneReadyEventPerBinding1795645623865 } from './1795645623865-OneReadyEventPerBinding';
import { SubscriptionChanges1795664392986 } from './1795664392986-SubscriptionChanges';
import { SubscriptionNotices1795665214803 } from './1795665214803-SubscriptionNotices';
import { RevenueReportIndexes1795677961523 } from './1795677961523-RevenueReportIndexes';
import { ClaimIndexes1795700000000 } from './1795700000000-ClaimIndexes';
import { ManualRetryOutsideLadder1795866176218 } from './1795866176218-ManualRetryOutsideLadder';
import { ChangeIdentities1795866436966 } from './1795866436966-ChangeIdentities';
import { PlanMigrations1795868295096 } from './1795868295096-PlanMigrations';
import { SubscriptionBillingErrors1795868365814 } from './1795868365814-SubscriptionBillingErrors';
import { LeaseOwnerIndexes1795869489949 } from './1795869489949-LeaseOwnerIndexes';
import { ChargeWaitingFor1795869825247 } from './1795869825247-ChargeWaitingFor';
import { Refunds1795871916287 } from './1795871916287-Refunds';
import { OneOffCharges1795872049938 } from './1795872049938-OneOffCharges';
import { ApiKeys1795882071458 } from './1795882071458-ApiKeys';
import { Coupons1795882211287 } from './1795882211287-Coupons';
import { ChangeActors1795883362136 } from './1795883362136-ChangeActors';
import { RateLimitBuckets1795883647643 } from './1795883647643-RateLimitBuckets';
import { ChargeRecovery1795891676954 } from './1795891676954-ChargeRecovery';
import { RecoveryLinks1795891702268 } from './1795891702268-RecoveryLinks';
import { PendingItemsByCustomer1795903969200 } from './1795903969200-PendingItemsByCustomer';

/** Every migration, in order. Generate new ones with `npm run migration:generate -- src/database/migrations/<Name>`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [
  BillingSchema1795241320428,
  Payouts1795241900000,
  EngineWorkIndexes1795242041163,
  OrderedTimestamps1795242881320,
  PayoutCursorPrecision1795243600000,
  InvoiceDueDateIntent1795247808831,
  WorkEngineHeartbeats1795534434716,
  ListOrderAndFilters1795593530175,
  BusinessTimestamps1795593859416,
  BindingInteraction1795594114811,
  ProviderWebhooks1795596379473,
  MerchantEventsAndWebhooks1795598240433,
  IdempotentResourceIds1795644453949,
  ConsoleSessions1795644538142,
  PayoutReferences1795645124886,
  OneReadyEventPerBinding1795645623865,
  SubscriptionChanges1795664392986,
  SubscriptionNotices1795665214803,
  RevenueReportIndexes1795677961523,
  ClaimIndexes1795700000000,
  ManualRetryOutsideLadder1795866176218,
  ChangeIdentities1795866436966,
  PlanMigrations1795868295096,
  SubscriptionBillingErrors1795868365814,
  LeaseOwnerIndexes1795869489949,
  ChargeWaitingFor1795869825247,
  Refunds1795871916287,
  OneOffCharges1795872049938,
  ApiKeys1795882071458,
  Coupons1795882211287,
  ChangeActors1795883362136,
  RateLimitBuckets1795883647643,
  ChargeRecovery1795891676954,
  RecoveryLinks1795891702268,
  PendingItemsByCustomer1795903969200,
];
