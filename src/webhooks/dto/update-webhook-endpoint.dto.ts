import { IsBoolean, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { OptionalNotNull, StorableText } from '../../common/http/validators';
import { IsEventFilter } from './event-filter.validator';
import { WEBHOOK_URL_MESSAGE, WEBHOOK_URL_RULE } from './create-webhook-endpoint.dto';

/** PATCH /api/v1/webhook-endpoints/:id: only what is given changes; `description: null` clears it. */
export class UpdateWebhookEndpointDto {
  @OptionalNotNull()
  @IsString({ message: WEBHOOK_URL_MESSAGE })
  @MaxLength(2048)
  @StorableText()
  @IsUrl(WEBHOOK_URL_RULE, { message: WEBHOOK_URL_MESSAGE })
  url?: string;

  @OptionalNotNull()
  @IsEventFilter()
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string | null;

  @OptionalNotNull()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}
