import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { ApiIdProperty } from '../common/api-docs/api-properties';
import { ListQueryDto } from '../common/http/list-query.dto';
import { REFUND_STATUSES, RefundStatus } from './refund.entity';
import { REFUND_REFERENCE_PATTERN } from './refund-reference';

/** GET /api/v1/refunds?chargeId=&status=&reference=&limit=&cursor= */
export class ListRefundsQueryDto extends ListQueryDto {
  @ApiIdProperty("Only this charge's refunds.", { required: false })
  @IsOptional()
  @IsUUID('all', { message: 'chargeId must be a UUID' })
  chargeId?: string;

  @ApiPropertyOptional({ enum: REFUND_STATUSES, description: 'Only refunds in this status.' })
  @IsOptional()
  @IsIn(REFUND_STATUSES, { message: `status must be one of ${REFUND_STATUSES.join(', ')}` })
  status?: RefundStatus;

  @ApiPropertyOptional({ type: String, pattern: REFUND_REFERENCE_PATTERN.source, description: 'Only the refund with this reference.' })
  @IsOptional()
  @IsString({ message: 'reference must be 1..64 letters, digits and ._:-' })
  @Matches(REFUND_REFERENCE_PATTERN, { message: 'reference must be 1..64 letters, digits and ._:-' })
  reference?: string;
}
