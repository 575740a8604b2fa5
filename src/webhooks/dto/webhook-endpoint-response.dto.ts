import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../../common/api-docs/api-properties';
import { EVENT_TYPES } from '../../events/event-types';

/** Documentation of a webhook endpoint as the admin API answers it (webhook-responses.ts); never its secret. */
@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointResponseDto {
  @ApiIdProperty('The endpoint id.')
  id: string;

  @ApiProperty({ description: 'Where events are POSTed.', example: 'https://merchant.example/webhooks/billing' })
  url: string;

  @ApiProperty({ enum: ['*', ...EVENT_TYPES], isArray: true, description: 'The event types sent here; `["*"]`: every type.', example: ['*'] })
  events: string[];

  @ApiNullableText('Your note about it.', 'Orders service')
  description: string | null;

  @ApiProperty({ description: 'false: nothing is sent to it (deliveries queued for it are canceled).', example: true })
  enabled: boolean;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Failed attempts in a row since the last success (0 when it answers).', example: 0 })
  consecutiveFailures: number;

  @ApiTimeProperty('When it was created.')
  createdAt: string;

  @ApiTimeProperty('When it last changed.')
  updatedAt: string;
}
