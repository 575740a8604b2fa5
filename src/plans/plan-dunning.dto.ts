import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { FINAL_ACTIONS, IsRetryDelay } from './plan-validation';

/** A plan's own dunning ladder, replacing DUNNING_RETRY_DELAYS / DUNNING_FINAL_ACTION for its subscriptions. */
export class PlanDunningDto {
  /** Delays such as `1d` or `12h`, each counted from the previous attempt; an empty list means no retries. */
  @IsArray()
  @ArrayMaxSize(15)
  @IsRetryDelay({ each: true })
  retryDelays: string[];

  @IsIn(FINAL_ACTIONS)
  finalAction: 'cancel' | 'unpaid';
}
