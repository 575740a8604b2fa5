import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { OptionalNotNull, StorableText } from '../../common/http/validators';
import { EVENTS_FILTER_DOC, WEBHOOK_URL_MESSAGE, WEBHOOK_URL_RULE } from './create-webhook-endpoint.dto';
import { IsEventFilter } from './event-filter.validator';

/** PATCH /api/v1/webhook-endpoints/:id: only what is given changes; `description: null` clears it. */
@ApiSchema({ name: 'UpdateWebhookEndpoint' })
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ maxLength: 2048, format: 'uri', description: 'A new http or https URL.', example: 'https://merchant.example/webhooks/billing-v2' })
  @OptionalNotNull()
  @IsString({ message: WEBHOOK_URL_MESSAGE })
  @MaxLength(2048)
  @StorableText()
  @IsUrl(WEBHOOK_URL_RULE, { message: WEBHOOK_URL_MESSAGE })
  url?: string;

  @ApiPropertyOptional(EVENTS_FILTER_DOC)
  @OptionalNotNull()
  @IsEventFilter()
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000, description: 'A new note; null clears it.', example: 'Orders service' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string | null;

  @ApiPropertyOptional({ type: Boolean, description: 'false: send it nothing until it is enabled again.', example: false })
  @OptionalNotNull()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}
