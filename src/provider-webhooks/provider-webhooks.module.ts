import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewayModule } from '../gateway/gateway.module';
import { ProviderEvent } from './provider-event.entity';
import { ProviderEventApplierService } from './provider-event-applier.service';
import { ProviderEventIntakeService } from './provider-event-intake.service';
import { ProviderEventRouter } from './provider-event-router.service';
import { ProviderEventsRepository } from './provider-events.repository';
import { ProviderWebhook } from './provider-webhook.entity';
import { ProviderWebhookRegistrationService } from './provider-webhook-registration.service';
import { ProviderWebhooksController } from './provider-webhooks.controller';
import { ProviderWebhooksRepository } from './provider-webhooks.repository';
import { WebhookHealthService } from './webhook-health.service';

/**
 * The provider's webhooks: registration at the provider, the signed receiving endpoint, and the queue that applies
 * received events. Domains register their handlers on the router and ask the health service whether to poll slower.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderWebhook, ProviderEvent]), GatewayModule],
  controllers: [ProviderWebhooksController],
  providers: [
    ProviderWebhooksRepository,
    ProviderEventsRepository,
    ProviderEventRouter,
    WebhookHealthService,
    ProviderEventIntakeService,
    ProviderEventApplierService,
    ProviderWebhookRegistrationService,
  ],
  exports: [ProviderEventRouter, WebhookHealthService, ProviderWebhookRegistrationService],
})
export class ProviderWebhooksModule {}
