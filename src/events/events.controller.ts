import { Controller, Get, Param, Query } from '@nestjs/common';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toEventResponse } from './event-response';
import { EventsService } from './events.service';
import { ListEventsQueryDto } from './list-events-query.dto';

@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  async list(@Query() query: ListEventsQueryDto) {
    const page = await this.events.list(query);
    return { items: page.items.map(toEventResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toEventResponse(await this.events.get(id));
  }
}
