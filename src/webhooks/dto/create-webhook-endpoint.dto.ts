import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { IsString, IsUrl, MaxLength } from 'class-validator';
import { EVENT_TYPES } from '../../events/event-types';
import { OptionalNotNull, StorableText } from '../../common/http/validators';
import { IsEventFilter } from './event-filter.validator';

export const WEBHOOK_URL_RULE = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true };
export const WEBHOOK_URL_MESSAGE = 'url must be an http or https URL, e.g. https://example.com/webhooks';
export const EVENTS_FILTER_DOC: ApiPropertyOptions = {
  enum: ['*', ...EVENT_TYPES],
  isArray: true,
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description: 'The event types to send: distinct known types, or `["*"]` (alone) for every type.',
  example: ['charge.succeeded', 'charge.failed'],
};

/** POST /api/v1/webhook-endpoints. */
@ApiSchema({ name: 'CreateWebhookEndpoint' })
export class CreateWebhookEndpointDto {
  @ApiProperty({ maxLength: 2048, format: 'uri', description: 'An http or https URL the events are POSTed to.', example: 'https://merchant.example/webhooks/billing' })
  @IsString({ message: WEBHOOK_URL_MESSAGE })
  @MaxLength(2048)
  @StorableText()
  @IsUrl(WEBHOOK_URL_RULE, { message: WEBHOOK_URL_MESSAGE })
  url: string;

  /** Event types to send; every type (`["*"]`) when absent. */
  @ApiPropertyOptional({ ...EVENTS_FILTER_DOC, default: ['*'] })
  @OptionalNotNull()
  @IsEventFilter()
  events?: string[];

  @ApiPropertyOptional({ maxLength: 1000, description: 'Your note about it.', example: 'Orders service' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string;
}
