import { IsSeatQuantity } from '../../subscriptions/dto/seat-quantity.decorator';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsUUID } from 'class-validator';

export const CHANGE_EFFECTIVE = ['now', 'period_end'] as const;

@ApiSchema({ name: 'ChangeSubscription' })
export class ChangeSubscriptionDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: "The plan to move to: active, in the subscription's currency. At least one of planId and quantity." })
  @IsOptional()
  @IsUUID(undefined, { message: 'planId must be a UUID' })
  planId?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10000, description: "The seats to move to. At least one of planId and quantity. The plan's amount × quantity is at most 10^15 minor units (422 past it).", example: 5 })
  @IsSeatQuantity()
  quantity?: number;

  @ApiPropertyOptional({
    enum: CHANGE_EFFECTIVE,
    description: '`now`, or `period_end` (at the next renewal). Default: `now` when the new amount per period is higher (an upgrade), else `period_end`.',
  })
  @IsOptional()
  @IsIn(CHANGE_EFFECTIVE, { message: 'effective must be one of: now, period_end' })
  effective?: (typeof CHANGE_EFFECTIVE)[number];

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'false: nothing is charged or credited for the days left of the period.' })
  @IsOptional()
  @IsBoolean({ message: 'prorate must be a boolean' })
  prorate?: boolean;
}
