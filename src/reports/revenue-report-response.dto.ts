import { ApiProperty, ApiSchema } from '@nestjs/swagger';

const MINOR = 'minor units (kopecks for RUB)';

@ApiSchema({ name: 'MrrMovements', description: 'How MRR moved over the interval, by subscription; end MRR = start + new + expansion - contraction - churned + reactivated.' })
export class MrrMovementsDto {
  @ApiProperty({ type: 'integer', description: `MRR of subscriptions counted for the first time (${MINOR}).`, example: 99000 })
  new: number;

  @ApiProperty({ type: 'integer', description: `Growth of MRR of subscriptions counted at both ends (${MINOR}).`, example: 0 })
  expansion: number;

  @ApiProperty({ type: 'integer', description: `Shrinkage of MRR of subscriptions counted at both ends (${MINOR}).`, example: 0 })
  contraction: number;

  @ApiProperty({ type: 'integer', description: `MRR at the start of subscriptions not counted at the end (${MINOR}).`, example: 50000 })
  churned: number;

  @ApiProperty({ type: 'integer', description: `MRR of subscriptions counted again after an interruption (${MINOR}).`, example: 0 })
  reactivated: number;
}

@ApiSchema({ name: 'SubscribersChurned' })
export class SubscribersChurnedDto {
  @ApiProperty({ type: 'integer', description: 'Paying subscriptions canceled (now or at the period end) in the interval.', example: 1 })
  voluntary: number;

  @ApiProperty({ type: 'integer', description: "Subscriptions ended by dunning's final action (canceled or unpaid) in the interval.", example: 2 })
  involuntary: number;
}

@ApiSchema({ name: 'RevenueInterval' })
export class RevenueIntervalDto {
  @ApiProperty({ description: 'Start of the interval (inclusive), UTC.', example: '2027-03-01T00:00:00.000Z' })
  start: string;

  @ApiProperty({ description: 'End of the interval (exclusive), UTC.', example: '2027-04-01T00:00:00.000Z' })
  end: string;

  @ApiProperty({ example: 'RUB' })
  currency: string;

  @ApiProperty({ type: 'integer', description: `MRR at the start of the interval (${MINOR}).`, example: 148000 })
  mrrAtStart: number;

  @ApiProperty({ type: 'integer', description: `MRR at the end of the interval: monthly-normalised amount of active and past_due subscriptions, trials excluded (${MINOR}).`, example: 197000 })
  mrr: number;

  @ApiProperty({ type: MrrMovementsDto })
  movements: MrrMovementsDto;

  @ApiProperty({ type: SubscribersChurnedDto })
  subscribersChurned: SubscribersChurnedDto;

  @ApiProperty({ type: 'integer', description: `Amount of the charges whose first attempt fell in the interval (${MINOR}).`, example: 297000 })
  renewalVolume: number;

  @ApiProperty({ type: 'integer', description: `Of it, the amount whose first attempt was declined (${MINOR}).`, example: 99000 })
  failedVolume: number;

  @ApiProperty({ type: 'integer', description: `Of the failed volume, the amount paid since (${MINOR}).`, example: 49500 })
  recoveredVolume: number;

  @ApiProperty({ type: 'number', nullable: true, description: 'failedVolume / renewalVolume, 4 decimals; null without renewal volume.', example: 0.3333 })
  failureRate: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'recoveredVolume / failedVolume, 4 decimals; null without failed volume.', example: 0.5 })
  recoveryRate: number | null;

  @ApiProperty({
    type: 'integer',
    description: `Amount of the refunds that succeeded in the interval, to the card and to the credit balance (${MINOR}); refunds are not churn and move no MRR.`,
    example: 2500,
  })
  refunds: number;

  @ApiProperty({ type: 'integer', description: 'How many refunds succeeded in the interval.', example: 1 })
  refundCount: number;
}

@ApiSchema({ name: 'RevenueReport' })
export class RevenueReportResponseDto {
  @ApiProperty({ enum: ['day', 'week', 'month'], example: 'month' })
  interval: string;

  @ApiProperty({ type: [RevenueIntervalDto], description: 'Oldest first; one row per interval and currency (every currency seen in the range, or the one asked for).' })
  items: RevenueIntervalDto[];
}
