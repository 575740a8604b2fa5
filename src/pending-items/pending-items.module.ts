import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '../customers/customers.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { PendingItem } from './pending-item.entity';
import { PendingItemsController } from './pending-items.controller';
import { PendingItemsRepository } from './pending-items.repository';
import { PendingItemsService } from './pending-items.service';

/** Money a subscription's next period charge collects as extra cart lines; billing bills them, this module owns them. */
@Module({
  imports: [TypeOrmModule.forFeature([PendingItem]), SubscriptionsModule, CustomersModule],
  controllers: [PendingItemsController],
  providers: [PendingItemsRepository, PendingItemsService],
  exports: [PendingItemsService],
})
export class PendingItemsModule {}
