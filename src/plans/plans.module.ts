import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { Plan } from './plan.entity';
import { PlanEventNames } from './plan-event-names.service';
import { PlansController } from './plans.controller';
import { PlansService } from './plans.service';

/** Plans (price lists). Exports PlansService: subscriptions call getForSubscription and effectiveDunning. */
@Module({
  imports: [TypeOrmModule.forFeature([Plan]), EventsModule],
  controllers: [PlansController],
  providers: [PlansService, PlanEventNames],
  exports: [PlansService],
})
export class PlansModule {}
