import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/balances.module';
import { BillingModule } from '../billing/billing.module';
import { PlansModule } from '../plans/plans.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { SubscriptionChangesController } from './subscription-changes.controller';
import { SubscriptionChangesService } from './subscription-changes.service';

/** Plan and quantity changes of subscriptions: preview, change now or at period end, drop a pending change. */
@Module({
  imports: [SubscriptionsModule, PlansModule, BillingModule, BalancesModule],
  controllers: [SubscriptionChangesController],
  providers: [SubscriptionChangesService],
})
export class SubscriptionChangesModule {}
