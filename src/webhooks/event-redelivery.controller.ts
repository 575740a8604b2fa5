import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { RedeliverEventDto } from './dto/redeliver-event.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** POST /api/v1/events/:id/redeliver lives with the deliveries it makes. */
@Controller('api/v1/events')
export class EventRedeliveryController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post(':id/redeliver')
  @HttpCode(202)
  redeliver(@Param('id', UUID_PARAM) id: string, @Body() dto: RedeliverEventDto) {
    return this.endpoints.redeliver(id, dto.endpointId);
  }
}
