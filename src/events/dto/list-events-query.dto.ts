import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { EVENT_TYPES, EventType } from '../event-types';

/** `GET /api/v1/events?type=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES, description: 'Only events of this type.' })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: EventType;
}
