import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ChargeStatus } from './charge.entity';

export const CHARGE_STATUSES: ChargeStatus[] = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'];

/** `GET /api/v1/charges?status=&subscriptionId=&customerId=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListChargesQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(CHARGE_STATUSES, { message: `status must be one of ${CHARGE_STATUSES.join(', ')}` })
  status?: ChargeStatus;

  @IsOptional()
  @IsUUID(undefined, { message: 'subscriptionId must be a UUID' })
  subscriptionId?: string;

  @IsOptional()
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId?: string;
}
