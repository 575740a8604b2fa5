import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BalancesModule } from '../balances/balances.module';
import { CustomersModule } from '../customers/customers.module';
import { EventsModule } from '../events/events.module';
import { GatewayModule } from '../gateway/gateway.module';
import { PendingItemsModule } from '../pending-items/pending-items.module';
import { PlansModule } from '../plans/plans.module';
import { DunningModule } from '../dunning/dunning.module';
import { ProviderWebhooksModule } from '../provider-webhooks/provider-webhooks.module';
import { RecoveryLinksModule } from '../recovery-links/recovery-links.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { ChargeActionRequiredService } from './charge-action-required.service';
import { BillingController } from './billing.controller';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingRunService } from './billing-run.service';
import { BillingSchedulerService } from './billing-scheduler.service';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ExpiredCardSignal } from './expired-card-signal.service';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeContextService } from './charge-context.service';
import { AttemptTimingService } from './attempt-timing.service';
import { ChargeProcessorService } from './charge-processor.service';
import { ChargeSettlementService } from './charge-settlement.service';
import { InvoiceAdoptionService } from './invoice-adoption.service';
import { ChargesRepository } from './charges.repository';
import { PeriodMaterializerService } from './period-materializer.service';
import { ProrationChargesService } from './proration-charges.service';
import { chargeQueueProvider } from './charge-queue';
import { ChargesController } from './charges.controller';
import { ChargesService } from './charges.service';
import { ChargeDunningController } from './charge-dunning.controller';
import { ChargeDunningService } from './charge-dunning.service';
import { ChargeFiguresRepository } from './charge-figures.repository';
import { ChargeFiguresService } from './charge-figures.service';
import { RefundableChargesService } from './refundable-charges.service';
import { OneOffChargesController } from './one-off-charges.controller';
import { OneOffChargesRepository } from './one-off-charges.repository';
import { OneOffChargesService } from './one-off-charges.service';
import { OneOffSettlementService } from './one-off-settlement.service';
import { SetupFeesService } from './setup-fees.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Charge, ChargeAttempt]),
    GatewayModule,
    PlansModule,
    CustomersModule,
    SubscriptionsModule,
    ProviderWebhooksModule,
    EventsModule,
    BalancesModule,
    PendingItemsModule,
    DunningModule,
    RecoveryLinksModule,
  ],
  controllers: [BillingController, ChargesController, ChargeDunningController, OneOffChargesController],
  providers: [
    ChargesRepository,
    ChargeAttemptsRepository,
    BillingMetricsService,
    chargeQueueProvider,
    ChargeContextService,
    ChargeSettlementService,
    InvoiceAdoptionService,
    AttemptTimingService,
    ChargeProcessorService,
    PeriodMaterializerService,
    BillingRunService,
    BillingSchedulerService,
    ChargesService,
    ChargeDunningService,
    ChargeFiguresRepository,
    ChargeFiguresService,
    ProrationChargesService,
    RefundableChargesService,
    OneOffChargesRepository,
    OneOffSettlementService,
    OneOffChargesService,
    SetupFeesService,
    ChargeActionRequiredService,
    ExpiredCardSignal,
  ],
  exports: [ChargesService, BillingRunService, BillingSchedulerService, ChargeFiguresService, ProrationChargesService, RefundableChargesService],
})
export class BillingModule {}
