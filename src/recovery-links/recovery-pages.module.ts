import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { CustomersModule } from '../customers/customers.module';
import { PlansModule } from '../plans/plans.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { RecoveryLinksController } from './recovery-links.controller';
import { RecoveryLinksModule } from './recovery-links.module';
import { RecoveryPageController } from './recovery-page.controller';
import { RecoveryPagesService } from './recovery-pages.service';

/** The admin route that mints a recovery link and the public page (/pay/:token) a link opens. */
@Module({
  imports: [RecoveryLinksModule, BillingModule, CustomersModule, SubscriptionsModule, PlansModule, RateLimitsModule],
  controllers: [RecoveryLinksController, RecoveryPageController],
  providers: [RecoveryPagesService],
})
export class RecoveryPagesModule {}
