import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';

export class ListWebhookAttemptsQueryDto extends ListQueryDto {
  @IsOptional()
  @IsUUID(undefined, { message: 'eventId must be a UUID' })
  eventId?: string;

  @IsOptional()
  @IsIn(['succeeded', 'failed'], { message: 'status must be succeeded or failed' })
  status?: 'succeeded' | 'failed';
}
