import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionCredentials } from '../common/auth/session-credentials';
import { ConsoleSession } from './console-session.entity';
import { ConsoleSessionCredentials } from './console-session-credentials';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleSessionService } from './console-session.service';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { BillingModule } from '../billing/billing.module';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { WebhooksModule } from '../webhooks/webhooks.module';

/**
 * The operator console: its sign-in sessions (it provides the global admin guard's SessionCredentials: when a session
 * cookie stands in for a credential) and its dashboard.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ConsoleSession]), ApiKeysModule, RateLimitsModule, BillingModule, SubscriptionsModule, WebhooksModule],
  controllers: [ConsoleSessionController, DashboardController],
  providers: [ConsoleSessionService, ConsoleSessionsRepository, DashboardService, ConsoleSessionCredentials, { provide: SessionCredentials, useExisting: ConsoleSessionCredentials }],
  exports: [ConsoleSessionService, SessionCredentials],
})
export class ConsoleModule {}
