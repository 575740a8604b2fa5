import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { EventListItemDto } from './dto/event-list-item.dto';
import { EventResponseDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { toEventResponse } from './event-response';
import { EventNamesService } from './event-names.service';
import { EventsService } from './events.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Events and webhooks')
@Controller('api/v1/events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly names: EventNamesService,
  ) {}

  @ApiAdminRoute({
    summary: 'List events',
    description:
      'What happened, newest first, kept 30 days: the same events the webhook endpoints receive, each with `about`: the customer, plan and amount it concerns, by name.',
    errors: ['validation_failed'],
  })
  @ApiPageResponse(EventListItemDto)
  @RequiresScope('events:read')
  @Get()
  async list(@Query() query: ListEventsQueryDto) {
    const page = await this.events.list(query);
    const about = await this.names.aboutAll(page.items);
    return { items: page.items.map((event, i) => ({ ...toEventResponse(event), about: about[i] })), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read an event', description: 'Exactly the body its webhook deliveries carry.', id: 'event' })
  @ApiOkResponse({ type: EventResponseDto })
  @RequiresScope('events:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toEventResponse(await this.events.get(id));
  }
}
