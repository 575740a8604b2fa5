import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty } from '../../common/api-docs/api-properties';

/** Documentation of the answer to DELETE /api/v1/webhook-endpoints/:id. */
@ApiSchema({ name: 'DeletedWebhookEndpoint' })
export class DeletedWebhookEndpointResponseDto {
  @ApiIdProperty('The endpoint that was deleted.')
  id: string;

  @ApiProperty({ enum: [true], description: 'Always true.', example: true })
  deleted: true;
}
