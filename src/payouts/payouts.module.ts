import { Module } from '@nestjs/common';
import { GatewayModule } from '../gateway/gateway.module';
import { PayoutBatchesController } from './payout-batches.controller';
import { PayoutDestinationsController } from './payout-destinations.controller';
import { PayoutDestinationsService } from './payout-destinations.service';
import { PayoutMetricsService } from './payout-metrics.service';
import { PayoutProcessorService } from './payout-processor.service';
import { PayoutQueueService } from './payout-queue.service';
import { PayoutSchedulerService } from './payout-scheduler.service';
import { PayoutSetupController } from './payout-setup.controller';
import { PayoutSetupService } from './payout-setup.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsService } from './payouts.service';

/** Card payouts from the corporate wallet: setup, destinations, single and mass payouts, and their processor. */
@Module({
  imports: [GatewayModule],
  // Order matters: PayoutsController's `:id` route comes last so it does not catch /setup, /destinations, /batches.
  controllers: [PayoutSetupController, PayoutDestinationsController, PayoutBatchesController, PayoutsController],
  providers: [
    PayoutSetupService,
    PayoutDestinationsService,
    PayoutsService,
    PayoutQueueService,
    PayoutProcessorService,
    PayoutSchedulerService,
    PayoutMetricsService,
  ],
  exports: [PayoutProcessorService, PayoutsService],
})
export class PayoutsModule {}
