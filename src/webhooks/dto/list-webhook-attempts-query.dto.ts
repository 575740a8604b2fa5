import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ApiIdProperty } from '../../common/api-docs/api-properties';
import { ListQueryDto } from '../../common/http/list-query.dto';

/** `GET /api/v1/webhook-endpoints/:id/deliveries?eventId=&status=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListWebhookAttemptsQueryDto extends ListQueryDto {
  @ApiIdProperty('Only attempts to send this event.', { required: false })
  @IsOptional()
  @IsUUID(undefined, { message: 'eventId must be a UUID' })
  eventId?: string;

  @ApiPropertyOptional({ enum: ['succeeded', 'failed'], description: 'Only attempts with this outcome.' })
  @IsOptional()
  @IsIn(['succeeded', 'failed'], { message: 'status must be succeeded or failed' })
  status?: 'succeeded' | 'failed';
}
