import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { EventRedeliveryController } from './event-redelivery.controller';
import { SecretBoxService } from './secret-box.service';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookHttpClient } from './webhook-http.client';
import { WebhookMetricsService } from './webhook-metrics.service';
import { WebhookRetentionService } from './webhook-retention.service';
import { WebhookSenderService } from './webhook-sender.service';
import { WebhookTargetCheck } from './webhook-target-check.service';
import { WebhookTargetPolicy } from './webhook-target-policy';

/** Webhooks to the merchant: endpoints, the signed delivery queue on the work engine, attempts and redelivery. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]), EventsModule],
  controllers: [WebhookEndpointsController, EventRedeliveryController],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    SecretBoxService,
    WebhookHttpClient,
    WebhookTargetPolicy,
    WebhookTargetCheck,
    WebhookMetricsService,
    WebhookSenderService,
    WebhookEndpointsService,
    WebhookDeliveryService,
    WebhookRetentionService,
  ],
  exports: [WebhookEndpointsService],
})
export class WebhooksModule {}
