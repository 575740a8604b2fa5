import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CouponsModule } from '../coupons/coupons.module';
import { CustomersModule } from '../customers/customers.module';
import { EventsModule } from '../events/events.module';
import { PlansModule } from '../plans/plans.module';
import { Subscription } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionBillingErrorsService } from './subscription-billing-errors.service';
import { SubscriptionEventsRepository } from './subscription-events.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionNotice } from './subscription-notice.entity';
import { SubscriptionNoticesRepository } from './subscription-notices.repository';
import { SubscriptionNoticesService } from './subscription-notices.service';
import { SubscriptionRepricingService } from './subscription-repricing.service';
import { SubscriptionDiscountsService } from './subscription-discounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([Subscription, SubscriptionEvent, SubscriptionNotice]), PlansModule, CustomersModule, EventsModule, CouponsModule],
  controllers: [SubscriptionsController],
  providers: [
    SubscriptionsRepository,
    SubscriptionEventsRepository,
    SubscriptionsService,
    SubscriptionLifecycleService,
    SubscriptionBillingErrorsService,
    SubscriptionNoticesRepository,
    SubscriptionNoticesService,
    SubscriptionRepricingService,
    SubscriptionDiscountsService,
  ],
  exports: [SubscriptionsService, SubscriptionLifecycleService, SubscriptionNoticesService, SubscriptionRepricingService],
})
export class SubscriptionsModule {}
