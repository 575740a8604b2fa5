import { IsString, IsUrl, MaxLength } from 'class-validator';
import { OptionalNotNull, StorableText } from '../../common/http/validators';
import { IsEventFilter } from './event-filter.validator';

export const WEBHOOK_URL_RULE = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true };
export const WEBHOOK_URL_MESSAGE = 'url must be an http or https URL, e.g. https://example.com/webhooks';

/** POST /api/v1/webhook-endpoints. */
export class CreateWebhookEndpointDto {
  @IsString({ message: WEBHOOK_URL_MESSAGE })
  @MaxLength(2048)
  @StorableText()
  @IsUrl(WEBHOOK_URL_RULE, { message: WEBHOOK_URL_MESSAGE })
  url: string;

  /** Event types to send; every type (`["*"]`) when absent. */
  @OptionalNotNull()
  @IsEventFilter()
  events?: string[];

  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string;
}
