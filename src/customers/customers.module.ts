import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { GatewayModule } from '../gateway/gateway.module';
import { ProviderWebhooksModule } from '../provider-webhooks/provider-webhooks.module';
import { CardBoundNotifierService } from './card-bound-notifier.service';
import { CustomerAnnouncerService } from './customer-announcer.service';
import { CardExpiryFlagsService } from './card-expiry-flags.service';
import { CustomerEventNames } from './customer-event-names.service';
import { CustomerBindingsRepository } from './customer-bindings.repository';
import { CustomerProviderReaderService } from './customer-provider-reader.service';
import { CustomerSyncWriterService } from './customer-sync-writer.service';
import { CustomerSyncService } from './customer-sync.service';
import { CustomerBinding } from './customer-binding.entity';
import { Customer } from './customer.entity';
import { CustomersController } from './customers.controller';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';
import { HostedFormLinkService } from './hosted-form-link.service';

/** Customers, card bindings and the follower that keeps them in step with the provider. */
@Module({
  imports: [TypeOrmModule.forFeature([Customer, CustomerBinding]), GatewayModule, ProviderWebhooksModule, EventsModule],
  controllers: [CustomersController],
  providers: [
    CustomersRepository,
    CustomerBindingsRepository,
    CustomerAnnouncerService,
    CardBoundNotifierService,
    CustomerProviderReaderService,
    CustomerSyncWriterService,
    CustomersService,
    CustomerSyncService,
    HostedFormLinkService,
    CustomerEventNames,
    CardExpiryFlagsService,
  ],
  exports: [CustomersService, CustomerSyncService, CardBoundNotifierService, CardExpiryFlagsService],
})
export class CustomersModule {}
