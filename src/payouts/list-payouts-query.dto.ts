import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import { PAYOUT_STATUSES, PayoutStatus } from './payout.entity';

/** GET /api/v1/payouts?status=&batchId=&limit=&cursor= */
export class ListPayoutsQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(PAYOUT_STATUSES, { message: `status must be one of ${PAYOUT_STATUSES.join(', ')}` })
  status?: PayoutStatus;

  @IsOptional()
  @IsUUID('all', { message: 'batchId must be a UUID' })
  batchId?: string;
}
