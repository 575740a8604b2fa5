import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { RedeliverEventDto } from './dto/redeliver-event.dto';
import { RedeliveryResponseDto } from './dto/redelivery-response.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

/** POST /api/v1/events/:id/redeliver lives with the deliveries it makes. */
@ApiTags('Events and webhooks')
@Controller('api/v1/events')
export class EventRedeliveryController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @ApiAdminRoute({
    summary: 'Send an event again',
    description: 'The same body, signed anew, to one endpoint or to every enabled endpoint subscribed to its type; sent by the processes that run the scheduler.',
    id: 'event',
    body: true,
    idempotent: true,
    errors: ['state_conflict'],
  })
  @ApiAcceptedResponse({ type: RedeliveryResponseDto })
  @RequiresScope('webhooks:write')
  @Post(':id/redeliver')
  @HttpCode(202)
  redeliver(@Param('id', UUID_PARAM) id: string, @Body() dto: RedeliverEventDto) {
    return this.endpoints.redeliver(id, dto.endpointId);
  }
}
