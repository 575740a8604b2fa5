import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ApiIdProperty } from '../common/api-docs/api-properties';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ChargeStatus } from './charge.entity';

export const CHARGE_STATUSES: ChargeStatus[] = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'];

/** `GET /api/v1/charges?status=&subscriptionId=&customerId=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListChargesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CHARGE_STATUSES, description: 'Only charges in this status.' })
  @IsOptional()
  @IsIn(CHARGE_STATUSES, { message: `status must be one of ${CHARGE_STATUSES.join(', ')}` })
  status?: ChargeStatus;

  @ApiIdProperty("Only this subscription's charges.", { required: false })
  @IsOptional()
  @IsUUID(undefined, { message: 'subscriptionId must be a UUID' })
  subscriptionId?: string;

  @ApiIdProperty("Only this customer's charges.", { required: false })
  @IsOptional()
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId?: string;
}
