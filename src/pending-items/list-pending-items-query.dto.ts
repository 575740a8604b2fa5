import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import { PENDING_ITEM_STATUSES, PendingItemStatus } from './pending-item.entity';

/** `GET /api/v1/customers/{id}/pending-items?status=`: a customer's items, only those in `status` when given. */
export class ListPendingItemsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PENDING_ITEM_STATUSES, description: 'Only items in this status (`pending`: still waiting for the next renewal).' })
  @IsOptional()
  @IsIn(PENDING_ITEM_STATUSES, { message: `status must be one of ${PENDING_ITEM_STATUSES.join(', ')}` })
  status?: PendingItemStatus;
}
