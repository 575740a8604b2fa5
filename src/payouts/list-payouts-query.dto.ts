import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ApiIdProperty } from '../common/api-docs/api-properties';
import { ListQueryDto } from '../common/http/list-query.dto';
import { PAYOUT_STATUSES, PayoutStatus } from './payout.entity';

/** GET /api/v1/payouts?status=&batchId=&limit=&cursor= */
export class ListPayoutsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PAYOUT_STATUSES, description: 'Only payouts in this status.' })
  @IsOptional()
  @IsIn(PAYOUT_STATUSES, { message: `status must be one of ${PAYOUT_STATUSES.join(', ')}` })
  status?: PayoutStatus;

  @ApiIdProperty("Only this batch's payouts.", { required: false })
  @IsOptional()
  @IsUUID('all', { message: 'batchId must be a UUID' })
  batchId?: string;
}
