import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { CommonModule } from './common/common.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { CredentialGuard } from './common/auth/credential.guard';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { buildLoggerParams } from './common/logging/pino-options';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { RuntimeSettings } from './config/runtime-settings';
import { DatabaseModule } from './database/database.module';
import { poolSizeFor } from './database/data-source-options';
import type { WaitLog } from './database/wait-for-database';
import { GatewayModule } from './gateway/gateway.module';
import { HealthModule } from './health/health.module';
import { BillingModule } from './billing/billing.module';
import { BillingTuning } from './billing/billing-tuning';
import { PayoutTuning } from './payouts/payout-tuning';
import { RecoveryLinksModule } from './recovery-links/recovery-links.module';
import { RecoveryPagesModule } from './recovery-links/recovery-pages.module';
import { RefundsModule } from './refunds/refunds.module';
import { RefundTuning } from './refunds/refund-tuning';
import { CustomersModule } from './customers/customers.module';
import { PayoutsModule } from './payouts/payouts.module';
import { PendingItemsModule } from './pending-items/pending-items.module';
import { CouponsModule } from './coupons/coupons.module';
import { PlansModule } from './plans/plans.module';
import { PlanMigrationsModule } from './plan-migrations/plan-migrations.module';
import { ProviderWebhooksModule } from './provider-webhooks/provider-webhooks.module';
import { ReportsModule } from './reports/reports.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { BalancesModule } from './balances/balances.module';
import { SubscriptionChangesModule } from './subscription-changes/subscription-changes.module';
import { EventsModule } from './events/events.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WebhookTuning } from './webhooks/webhook-tuning';
import { WorkModule } from './work/work.module';
import { WorkTuning } from './work/work-tuning';

export interface AppModuleOptions {
  config: AppConfig;
  runtime: RuntimeSettings;
  /** Where JSON log lines go; stdout when unset. Tests capture them to check redaction. */
  logDestination?: DestinationStream;
  /** Database connections; by default sized from PROVIDER_MAX_CONCURRENCY (poolSizeFor). */
  poolSize?: number;
  /** Engine knobs; tests shorten leases and backoffs. */
  billingTuning?: Partial<BillingTuning>;
  payoutTuning?: Partial<PayoutTuning>;
  refundTuning?: Partial<RefundTuning>;
  /** Heartbeats, takeover and backoff of the work engine; tests shorten them. */
  workTuning?: Partial<WorkTuning>;
  /** Merchant webhook retry schedule, timeout and caps; tests shorten the schedule. */
  webhookTuning?: Partial<WebhookTuning>;
  /** Where the application's wait for its database is told (the boot's, in main.ts); the boot logger when unset. */
  databaseWait?: WaitLog;
  /** Further modules to mount; tests use it to prove that a route nobody thought about is still protected. */
  extraImports?: NonNullable<DynamicModule['imports']>;
}

@Global()
@Module({})
class RuntimeModule {}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        {
          module: RuntimeModule,
          providers: [
            { provide: RuntimeSettings, useValue: options.runtime },
            { provide: BillingTuning, useValue: BillingTuning.defaults(options.config, options.billingTuning) },
            { provide: PayoutTuning, useValue: PayoutTuning.defaults(options.config, options.payoutTuning) },
            { provide: RefundTuning, useValue: RefundTuning.defaults(options.config, options.refundTuning) },
            { provide: WorkTuning, useValue: new WorkTuning(options.workTuning) },
            { provide: WebhookTuning, useValue: new WebhookTuning(options.webhookTuning) },
          ],
          exports: [RuntimeSettings, BillingTuning, PayoutTuning, RefundTuning, WorkTuning, WebhookTuning],
        },
        LoggerModule.forRoot(buildLoggerParams(options.config.logLevel, options.logDestination)),
        CommonModule,
        DatabaseModule.forRoot({ url: options.runtime.databaseUrl, poolSize: options.poolSize ?? poolSizeFor(options.config.providerMaxConcurrency), wait: options.databaseWait }),
        ScheduleModule.forRoot(),
        WorkModule,
        HealthModule,
        GatewayModule,
        PlansModule,
        PlanMigrationsModule,
        CustomersModule,
        SubscriptionsModule,
        BalancesModule,
        SubscriptionChangesModule,
        PendingItemsModule,
        CouponsModule,
        BillingModule,
        PayoutsModule,
        RefundsModule,
        RecoveryLinksModule,
        RecoveryPagesModule,
        ProviderWebhooksModule,
        EventsModule,
        WebhooksModule,
        ApiKeysModule,
        RateLimitsModule,
        ConsoleModule,
        ReportsModule,
        ...(options.extraImports ?? []),
      ],
      providers: [
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
