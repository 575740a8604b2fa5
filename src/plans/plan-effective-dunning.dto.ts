import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DUNNING_STRATEGIES, FINAL_ACTIONS } from './plan-validation';

/** Documentation of the dunning a plan's subscriptions get: the plan's own, else the environment's (plan-response.ts builds it). */
@ApiSchema({
  name: 'PlanEffectiveDunning',
  description: "The dunning the plan's subscriptions get: the plan's own when it has one, else the environment's (DUNNING_STRATEGY, DUNNING_RETRY_DELAYS, DUNNING_FINAL_ACTION), which it follows when that changes.",
})
export class PlanEffectiveDunningDto {
  @ApiProperty({ enum: DUNNING_STRATEGIES, description: '`fixed`: the `retryDelays` ladder. `smart`: each retry timed by the decline (GET /api/v1/dunning/rules).', example: 'fixed' })
  strategy: 'fixed' | 'smart';

  @ApiPropertyOptional({ type: [String], description: 'Fixed only: the retry delays, each counted from the previous attempt. Empty: no retries.', example: ['1d', '3d', '5d', '7d'] })
  retryDelays?: string[];

  @ApiPropertyOptional({ type: 'integer', description: 'Smart only: no attempt later than this many days after the first decline.', example: 21 })
  maxDays?: number;

  @ApiProperty({ enum: FINAL_ACTIONS, description: 'What happens when dunning gives up: the subscription is canceled, or becomes unpaid.', example: 'cancel' })
  finalAction: 'cancel' | 'unpaid';
}
