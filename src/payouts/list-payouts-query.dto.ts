import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { ApiIdProperty } from '../common/api-docs/api-properties';
import { ListQueryDto } from '../common/http/list-query.dto';
import { PAYOUT_STATUSES, PayoutStatus } from './payout.entity';
import { PAYOUT_REFERENCE_PATTERN } from './payout-reference';

/** GET /api/v1/payouts?status=&batchId=&reference=&limit=&cursor= */
export class ListPayoutsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PAYOUT_STATUSES, description: 'Only payouts in this status.' })
  @IsOptional()
  @IsIn(PAYOUT_STATUSES, { message: `status must be one of ${PAYOUT_STATUSES.join(', ')}` })
  status?: PayoutStatus;

  @ApiIdProperty("Only this batch's payouts.", { required: false })
  @IsOptional()
  @IsUUID('all', { message: 'batchId must be a UUID' })
  batchId?: string;

  @ApiPropertyOptional({ type: String, pattern: PAYOUT_REFERENCE_PATTERN.source, description: 'Only the payout with this reference.' })
  @IsOptional()
  @IsString({ message: 'reference must be 1..64 letters, digits and ._:-' })
  @Matches(PAYOUT_REFERENCE_PATTERN, { message: 'reference must be 1..64 letters, digits and ._:-' })
  reference?: string;
}
