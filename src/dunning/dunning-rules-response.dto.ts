import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Documentation of one decline class of the smart strategy. */
@ApiSchema({ name: 'DunningClassRule' })
export class DunningClassRuleDto {
  @ApiProperty({ enum: ['insufficient_funds', 'issuer_refusal', 'technical', 'hard'], example: 'insufficient_funds' })
  class: string;

  @ApiProperty({ type: [String], description: "Segments of the provider's failure code path that put a decline in this class (the first matching rule wins; anything unmatched is an issuer refusal).", example: ['insufficient_funds'] })
  codes: string[];

  @ApiProperty({
    enum: ['payday', 'spaced', 'backoff', 'await_card'],
    description: '`payday`: on the morning hour of the next payday window; `spaced`: after each delay in turn, at the morning hour; `backoff`: after each delay in turn, kept inside the allowed hours; `await_card`: no attempt until a new card is bound, which is then tried at once.',
    example: 'payday',
  })
  timing: string;

  @ApiProperty({ type: [String], description: 'spaced and backoff: the delays, each from the previous attempt; their count is the class\'s own budget.', example: ['1d', '2d', '2d', '3d', '3d', '4d', '4d'] })
  delays: string[];

  @ApiProperty({ type: 'string', nullable: true, description: 'When the budget is spent (payday: when the next payday window lies past the end of dunning), declines go on as this class (hard: wait for a new card).', example: 'hard' })
  thenClass: string | null;
}

/** Documentation of the smart strategy's rules. */
@ApiSchema({ name: 'DunningRules' })
export class DunningRulesResponseDto {
  @ApiProperty({ type: [Number], description: 'Local days of month wages arrive (BILLING_PAYDAYS).', example: [1, 15] })
  paydays: number[];

  @ApiProperty({ type: 'integer', description: 'Days in a payday window, the payday included.', example: 2 })
  paydayWindowDays: number;

  @ApiProperty({ type: 'integer', description: "Local hour (subscription's zone) of retries timed in days.", example: 9 })
  morningHour: number;

  @ApiProperty({ type: 'integer', description: 'Every attempt starts at or after this local hour…', example: 8 })
  allowedFromHour: number;

  @ApiProperty({ type: 'integer', description: '…and before this one.', example: 21 })
  allowedUntilHour: number;

  @ApiProperty({ type: 'integer', description: 'At most this many attempts per card in any 30 days (BILLING_MAX_ATTEMPTS_PER_CARD_30D).', example: 15 })
  maxAttemptsPer30Days: number;

  @ApiProperty({ type: 'integer', description: "Default of a plan's `dunning.maxDays`: no attempt later than this many days after the first decline.", example: 21 })
  defaultMaxDays: number;

  @ApiProperty({ enum: ['smart', 'fixed'], description: 'The strategy of plans that give neither strategy nor retryDelays (DUNNING_STRATEGY).', example: 'smart' })
  defaultStrategy: string;

  @ApiProperty({ type: [DunningClassRuleDto], description: 'Decline classes, matched in order.' })
  classes: DunningClassRuleDto[];
}
