import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { EventResponseDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { toEventResponse } from './event-response';
import { EventsService } from './events.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Events and webhooks')
@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @ApiAdminRoute({
    summary: 'List events',
    description: 'What happened, newest first, kept 30 days: the same events the webhook endpoints receive.',
    errors: ['validation_failed'],
  })
  @ApiPageResponse(EventResponseDto)
  @RequiresScope('events:read')
  @Get()
  async list(@Query() query: ListEventsQueryDto) {
    const page = await this.events.list(query);
    return { items: page.items.map(toEventResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read an event', description: 'Exactly the body its webhook deliveries carry.', id: 'event' })
  @ApiOkResponse({ type: EventResponseDto })
  @RequiresScope('events:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toEventResponse(await this.events.get(id));
  }
}
