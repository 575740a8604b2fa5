import { IsBoolean, IsOptional } from 'class-validator';

export class CancelSubscriptionDto {
  /** Default true: the subscription runs to the end of the paid period. */
  @IsOptional()
  @IsBoolean({ message: 'atPeriodEnd must be a boolean' })
  atPeriodEnd?: boolean;
}
