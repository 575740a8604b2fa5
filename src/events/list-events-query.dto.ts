import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import { EVENT_TYPES, EventType } from './event-types';

export class ListEventsQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: EventType;
}
