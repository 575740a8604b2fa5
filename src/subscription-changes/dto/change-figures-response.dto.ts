import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiTimeProperty } from '../../common/api-docs/api-properties';
import { SubscriptionResponseDto } from '../../subscriptions/dto/subscription-response.dto';

@ApiSchema({ name: 'ChangeLine' })
export class ChangeLineDto {
  @ApiProperty({ description: 'What the line is for.', example: 'Basic → Pro, 16 of 31 days' })
  description: string;

  @ApiProperty({ type: 'integer', description: 'Minor units: positive for what is owed, negative for what is credited.', example: 516 })
  amount: number;
}

/** What a change costs: the preview's answer and the `change` of a change's answer (equal for the same body and clock). */
@ApiSchema({ name: 'ChangeFigures' })
export class ChangeFiguresDto {
  @ApiTimeProperty('When the change takes effect: now, or the end of the current period.')
  effectiveAt: string;

  @ApiProperty({ type: 'integer', description: 'Unused days of the current period given back (only when it was paid), minor units.', example: 516 })
  credit: number;

  @ApiProperty({ type: 'integer', description: 'The new plan and quantity for the days left (or, for another interval, its whole first period).', example: 1032 })
  cost: number;

  @ApiProperty({ type: 'integer', description: 'cost − credit: charged now when positive, added to the credit balance when negative.', example: 516 })
  net: number;

  @ApiProperty({ type: 'integer', description: "The customer's credit balance in this currency after the change.", example: 0 })
  balanceAfter: number;

  @ApiTimeProperty('When the next period is charged.')
  nextChargeAt: string;

  @ApiProperty({ type: 'integer', description: 'What that period costs: the new plan amount × quantity.', example: 2000 })
  nextChargeAmount: number;

  @ApiProperty({ type: [ChangeLineDto], description: 'The figures as lines, for people.' })
  lines: ChangeLineDto[];
}

@ApiSchema({ name: 'ChangeResult' })
export class ChangeResultDto {
  @ApiProperty({ type: SubscriptionResponseDto })
  subscription: SubscriptionResponseDto;

  @ApiProperty({ type: ChangeFiguresDto })
  change: ChangeFiguresDto;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The charge made now (a proration, or the first period of a new interval), or null.' })
  chargeId: string | null;
}
