import { ApiSchema } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ApiIdProperty } from '../../common/api-docs/api-properties';
import { OptionalNotNull } from '../../common/http/validators';

/** POST /api/v1/events/:id/redeliver: to one endpoint, or to every enabled endpoint subscribed to the event's type. */
@ApiSchema({ name: 'RedeliverEvent' })
export class RedeliverEventDto {
  @ApiIdProperty('Send to this endpoint only (enabled, whatever its types); absent: to every enabled endpoint subscribed to the type.', { required: false })
  @OptionalNotNull()
  @IsUUID(undefined, { message: 'endpointId must be a UUID' })
  endpointId?: string;
}
