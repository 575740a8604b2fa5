import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsDateTimeWithZone } from '../common/http/date-time.validator';
import { ApiIdProperty } from '../common/api-docs/api-properties';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ChargeStatus } from './charge.entity';

export const CHARGE_STATUSES: ChargeStatus[] = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'];

/** `GET /api/v1/charges?status=&subscriptionId=&customerId=&lastAttempt=&attemptedAfter=&attemptedBefore=&createdAfter=&createdBefore=&limit=&cursor=`. */
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

  @ApiPropertyOptional({
    enum: ['succeeded', 'declined'],
    description: "Only charges whose latest attempt (in the attempted range, when one is given) ended so: with today's range, the dashboard's charges succeeded or declined today, hard declines included.",
  })
  @IsOptional()
  @IsIn(['succeeded', 'declined'], { message: 'lastAttempt must be one of succeeded, declined' })
  lastAttempt?: 'succeeded' | 'declined';

  @ApiPropertyOptional({ description: 'Only charges attempted at or after this time (billing clock), with a zone.', example: '2027-03-01T00:00:00.000Z' })
  @IsOptional()
  @IsDateTimeWithZone()
  attemptedAfter?: string;

  @ApiPropertyOptional({ description: 'Only charges attempted before this time (billing clock), with a zone.', example: '2027-03-02T00:00:00.000Z' })
  @IsOptional()
  @IsDateTimeWithZone()
  attemptedBefore?: string;
}
