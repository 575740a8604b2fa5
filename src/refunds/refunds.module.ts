import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BalancesModule } from '../balances/balances.module';
import { BillingModule } from '../billing/billing.module';
import { EventsModule } from '../events/events.module';
import { GatewayModule } from '../gateway/gateway.module';
import { ProviderWebhooksModule } from '../provider-webhooks/provider-webhooks.module';
import { RefundMetricsService } from './refund-metrics.service';
import { RefundProcessorService } from './refund-processor.service';
import { RefundProviderEventsService } from './refund-provider-events.service';
import { refundQueueProvider } from './refund-queue';
import { RefundSchedulerService } from './refund-scheduler.service';
import { RefundSubmissionService } from './refund-submission.service';
import { Refund } from './refund.entity';
import { RefundsController } from './refunds.controller';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds of succeeded charges, to the card (at the provider, on the work engine) or to the credit balance. */
@Module({
  imports: [TypeOrmModule.forFeature([Refund]), BillingModule, BalancesModule, EventsModule, GatewayModule, ProviderWebhooksModule],
  controllers: [RefundsController],
  providers: [RefundsRepository, RefundsService, refundQueueProvider, RefundSubmissionService, RefundProcessorService, RefundSchedulerService, RefundProviderEventsService, RefundMetricsService],
  exports: [RefundProcessorService],
})
export class RefundsModule {}
