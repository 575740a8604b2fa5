import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { DUNNING_STRATEGIES, FINAL_ACTIONS, IsRetryDelay, NotWithSmartStrategy } from './plan-validation';

/** A plan's own dunning, replacing DUNNING_STRATEGY / DUNNING_RETRY_DELAYS / DUNNING_FINAL_ACTION for its subscriptions. */
@ApiSchema({ name: 'PlanDunning', description: "A plan's own dunning: the fixed retry ladder, or smart retries timed by the decline." })
export class PlanDunningDto {
  @ApiPropertyOptional({
    enum: DUNNING_STRATEGIES,
    description:
      '`fixed`: the `retryDelays` ladder (a plan that gives `retryDelays` is fixed; without them, DUNNING_RETRY_DELAYS). `smart`: each retry timed by the decline (GET /api/v1/dunning/rules). Neither given: DUNNING_STRATEGY.',
    example: 'fixed',
  })
  @IsOptional()
  @IsIn(DUNNING_STRATEGIES)
  strategy?: 'fixed' | 'smart';

  /** Delays such as `1d` or `12h`, each counted from the previous attempt; an empty list means no retries. */
  @ApiPropertyOptional({
    type: [String],
    maxItems: 15,
    description: 'Fixed strategy only. Retry delays, each counted from the previous attempt: a whole number of s, m, h, d or w, between 1m and 365d. Empty: no retries.',
    example: ['1d', '3d', '5d', '7d'],
  })
  @ValidateIf((o: PlanDunningDto) => o.retryDelays !== undefined || o.strategy === undefined)
  @NotWithSmartStrategy()
  @IsArray()
  @ArrayMaxSize(15)
  @IsRetryDelay({ each: true })
  retryDelays?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 90, description: 'Smart strategy: no attempt later than this many days after the first decline (default 21).', example: 21 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(90)
  maxDays?: number;

  @ApiProperty({ enum: FINAL_ACTIONS, description: 'What happens when dunning gives up: the subscription is canceled, or becomes unpaid.', example: 'cancel' })
  @IsIn(FINAL_ACTIONS)
  finalAction: 'cancel' | 'unpaid';
}
