import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { PlansModule } from '../plans/plans.module';
import { Subscription } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';

@Module({
  imports: [TypeOrmModule.forFeature([Subscription, SubscriptionEvent]), PlansModule, EventsModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsService, SubscriptionLifecycleService],
  exports: [SubscriptionsService, SubscriptionLifecycleService],
})
export class SubscriptionsModule {}
