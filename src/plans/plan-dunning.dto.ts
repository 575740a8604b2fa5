import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { FINAL_ACTIONS, IsRetryDelay } from './plan-validation';

/** A plan's own dunning ladder, replacing DUNNING_RETRY_DELAYS / DUNNING_FINAL_ACTION for its subscriptions. */
@ApiSchema({ name: 'PlanDunning', description: "A plan's own retry ladder after a soft decline." })
export class PlanDunningDto {
  /** Delays such as `1d` or `12h`, each counted from the previous attempt; an empty list means no retries. */
  @ApiProperty({
    type: [String],
    maxItems: 15,
    description: 'Retry delays, each counted from the previous attempt: a whole number of s, m, h, d or w, between 1m and 365d. Empty: no retries.',
    example: ['1d', '3d', '5d', '7d'],
  })
  @IsArray()
  @ArrayMaxSize(15)
  @IsRetryDelay({ each: true })
  retryDelays: string[];

  @ApiProperty({ enum: FINAL_ACTIONS, description: 'What happens when the ladder is exhausted: the subscription is canceled, or becomes unpaid.', example: 'cancel' })
  @IsIn(FINAL_ACTIONS)
  finalAction: 'cancel' | 'unpaid';
}
