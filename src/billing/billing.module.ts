import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '../customers/customers.module';
import { GatewayModule } from '../gateway/gateway.module';
import { PlansModule } from '../plans/plans.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { BillingController } from './billing.controller';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingRunService } from './billing-run.service';
import { BillingSchedulerService } from './billing-scheduler.service';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeProcessorService } from './charge-processor.service';
import { ChargeQueueService } from './charge-queue.service';
import { ChargesController } from './charges.controller';
import { ChargesService } from './charges.service';

@Module({
  imports: [TypeOrmModule.forFeature([Charge, ChargeAttempt]), GatewayModule, PlansModule, CustomersModule, SubscriptionsModule],
  controllers: [BillingController, ChargesController],
  providers: [BillingMetricsService, ChargeQueueService, ChargeProcessorService, BillingRunService, BillingSchedulerService, ChargesService],
  exports: [BillingRunService, BillingSchedulerService],
})
export class BillingModule {}
