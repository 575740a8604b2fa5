import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ApiIdProperty } from '../../common/api-docs/api-properties';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { SubscriptionStatus } from '../subscription.entity';

export const SUBSCRIPTION_STATUSES: SubscriptionStatus[] = ['incomplete', 'trialing', 'active', 'past_due', 'paused', 'unpaid', 'canceled'];

/** `GET /api/v1/subscriptions?status=&customerId=&planId=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListSubscriptionsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES, description: 'Only subscriptions in this status.' })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
  status?: SubscriptionStatus;

  @ApiIdProperty("Only this customer's subscriptions.", { required: false })
  @IsOptional()
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId?: string;

  @ApiIdProperty("Only this plan's subscriptions.", { required: false })
  @IsOptional()
  @IsUUID(undefined, { message: 'planId must be a UUID' })
  planId?: string;
}
