import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

@ApiSchema({ name: 'CancelSubscription' })
export class CancelSubscriptionDto {
  /** Default true: the subscription runs to the end of the paid period. */
  @ApiPropertyOptional({ type: Boolean, default: true, description: 'true: it runs to the end of the paid period; false: it ends now.', example: true })
  @IsOptional()
  @IsBoolean({ message: 'atPeriodEnd must be a boolean' })
  atPeriodEnd?: boolean;
}
