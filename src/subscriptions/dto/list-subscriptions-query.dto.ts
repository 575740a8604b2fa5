import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { SubscriptionStatus } from '../subscription.entity';

export const SUBSCRIPTION_STATUSES: SubscriptionStatus[] = ['incomplete', 'trialing', 'active', 'past_due', 'paused', 'unpaid', 'canceled'];

/** `GET /api/v1/subscriptions?status=&customerId=&planId=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListSubscriptionsQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
  status?: SubscriptionStatus;

  @IsOptional()
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId?: string;

  @IsOptional()
  @IsUUID(undefined, { message: 'planId must be a UUID' })
  planId?: string;
}
