import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantEvent } from './event.entity';
import { EventRetentionService } from './event-retention.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventNamesService } from './event-names.service';
import { EventsService } from './events.service';

/** The merchant events outbox: producers record into it in their own transactions; the admin API lists it. */
@Module({
  imports: [TypeOrmModule.forFeature([MerchantEvent])],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventNamesService, EventRetentionService],
  exports: [EventsService, EventNamesService],
})
export class EventsModule {}
