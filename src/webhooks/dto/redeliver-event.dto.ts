import { IsUUID } from 'class-validator';
import { OptionalNotNull } from '../../common/http/validators';

/** POST /api/v1/events/:id/redeliver: to one endpoint, or to every enabled endpoint subscribed to the event's type. */
export class RedeliverEventDto {
  @OptionalNotNull()
  @IsUUID(undefined, { message: 'endpointId must be a UUID' })
  endpointId?: string;
}
