import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { GatewayModule } from '../gateway/gateway.module';
import { ProviderWebhooksModule } from '../provider-webhooks/provider-webhooks.module';
import { PayoutBatch } from './payout-batch.entity';
import { PayoutDestination } from './payout-destination.entity';
import { PayoutSetup } from './payout-setup.entity';
import { Payout } from './payout.entity';
import { PayoutBatchesController } from './payout-batches.controller';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutDestinationsController } from './payout-destinations.controller';
import { PayoutDestinationsRepository } from './payout-destinations.repository';
import { PayoutDestinationsService } from './payout-destinations.service';
import { PayoutMetricsService } from './payout-metrics.service';
import { PayoutProcessorService } from './payout-processor.service';
import { payoutQueueProvider } from './payout-queue';
import { PayoutSchedulerService } from './payout-scheduler.service';
import { PayoutSetupController } from './payout-setup.controller';
import { PayoutSetupRepository } from './payout-setup.repository';
import { PayoutSetupService } from './payout-setup.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { PayoutProviderEventsService } from './payout-provider-events.service';

/** Card payouts from the corporate wallet: setup, destinations, single and mass payouts, and their processor. */
@Module({
  imports: [TypeOrmModule.forFeature([PayoutSetup, PayoutDestination, PayoutBatch, Payout]), GatewayModule, ProviderWebhooksModule, EventsModule],
  // Order matters: PayoutsController's `:id` route comes last so it does not catch /setup, /destinations, /batches.
  controllers: [PayoutSetupController, PayoutDestinationsController, PayoutBatchesController, PayoutsController],
  providers: [
    PayoutProviderEventsService,
    PayoutSetupRepository,
    PayoutDestinationsRepository,
    PayoutBatchesRepository,
    PayoutsRepository,
    PayoutSetupService,
    PayoutDestinationsService,
    PayoutsService,
    payoutQueueProvider,
    PayoutProcessorService,
    PayoutSchedulerService,
    PayoutMetricsService,
  ],
  exports: [PayoutProcessorService, PayoutsService],
})
export class PayoutsModule {}
