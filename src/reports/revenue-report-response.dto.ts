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

@ApiSchema({ name: 'RecoveryRateBy', description: 'recoveryRate split by what recovered the volume (the charge\'s `recoveredBy`); each a share of failedVolume, 4 decimals, null without failed volume. Charges recovered before the split was recorded count in recoveryRate only.' })
export class RecoveryRateByDto {
  @ApiProperty({ type: 'number', nullable: true, description: 'A scheduled retry on the declined card.', example: 0.3 })
  retry: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'An attempt on a card bound since the first decline (a recovery link, the hosted form, the merchant\'s own form).', example: 0.15 })
  card_update: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: "An operator's retry.", example: 0.05 })
  manual_retry: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'The credit balance.', example: 0 })
  balance: number | null;
}

@ApiSchema({ name: 'IntervalBounds', description: 'A 95 % Wilson score interval.' })
export class IntervalBoundsDto {
  @ApiProperty({ type: 'number', example: 0.41 })
  low: number;

  @ApiProperty({ type: 'number', example: 0.58 })
  high: number;
}

@ApiSchema({
  name: 'RecoveryByStrategy',
  description:
    'Recovery of the charges whose first attempt fell in the interval and was declined, by the dunning that collected them: `smart`, `fixed` (plans on the fixed ladder) or `holdout` (smart subscriptions kept on the fixed ladder by DUNNING_HOLDOUT_PERCENT, the control group). Counted in charges, not volume.',
})
export class RecoveryByStrategyDto {
  @ApiProperty({ enum: ['smart', 'fixed', 'holdout'], example: 'smart' })
  strategy: 'smart' | 'fixed' | 'holdout';

  @ApiProperty({ type: 'integer', description: 'Charges whose first attempt was declined.', example: 120 })
  charges: number;

  @ApiProperty({ type: 'integer', description: 'Of them, charges paid since.', example: 61 })
  recovered: number;

  @ApiProperty({ type: 'number', description: 'recovered / charges, 4 decimals.', example: 0.5083 })
  recoveryRate: number;

  @ApiProperty({ type: IntervalBoundsDto, description: 'The 95 % Wilson interval of recoveryRate.' })
  interval: IntervalBoundsDto;
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

  @ApiProperty({ type: RecoveryRateByDto })
  recoveryRateBy: RecoveryRateByDto;

  @ApiProperty({ type: [RecoveryByStrategyDto], description: 'One entry per dunning group with declined charges in the interval; empty when none.' })
  recoveryByStrategy: RecoveryByStrategyDto[];

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
