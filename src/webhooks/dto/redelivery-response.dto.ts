import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, SAMPLE_ID } from '../../common/api-docs/api-properties';

/** Documentation of the answer to POST /api/v1/events/:id/redeliver. */
@ApiSchema({ name: 'Redelivery' })
export class RedeliveryResponseDto {
  @ApiIdProperty('The event sent again.')
  eventId: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', required: ['id', 'endpointId'], properties: { id: { type: 'string', format: 'uuid' }, endpointId: { type: 'string', format: 'uuid' } } },
    description: 'The new deliveries, one per endpoint; each is listed under its endpoint\'s deliveries once attempted.',
    example: [{ id: SAMPLE_ID, endpointId: SAMPLE_ID }],
  })
  deliveries: { id: string; endpointId: string }[];
}
