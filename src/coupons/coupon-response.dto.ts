import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimeProperty } from '../common/api-docs/api-properties';
import type { CouponDuration, CouponStatus } from './coupon.entity';
import { COUPON_DURATIONS } from './create-coupon.dto';

/** Documentation of a coupon as coupon-response.ts builds it. */
@ApiSchema({ name: 'Coupon' })
export class CouponResponseDto {
  @ApiIdProperty('The coupon id.')
  id: string;

  @ApiProperty({ description: 'What customers type, upper case.', example: 'SPRING50' })
  code: string;

  @ApiProperty({ example: 'Spring: half price for three months' })
  name: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Percent off, or null for an amount-off coupon.', example: 50 })
  percentOff: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Minor units off, or null for a percent-off coupon.', example: null })
  amountOff: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The currency of `amountOff`; null for a percent-off coupon.', example: null })
  currency: string | null;

  @ApiProperty({ enum: COUPON_DURATIONS, example: 'repeating' })
  duration: CouponDuration;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Period charges covered by a `repeating` coupon; null otherwise.', example: 3 })
  durationPeriods: number | null;

  @ApiProperty({ type: [String], nullable: true, description: 'The plans it applies to; null: every plan.' })
  appliesToPlans: string[] | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'How many subscriptions may use it; null: no limit.', example: 50 })
  maxRedemptions: number | null;

  @ApiProperty({ type: 'integer', description: 'How many subscriptions it was applied to.', example: 12 })
  timesRedeemed: number;

  @ApiTimeProperty('After this instant it can no longer be applied; null: no end.', { nullable: true })
  redeemBy: string | null;

  @ApiProperty({ description: 'Only for customers who have never paid.', example: false })
  firstTimeOnly: boolean;

  @ApiProperty({ enum: ['active', 'archived'], description: '`archived`: no longer applied to new subscriptions; those that have it keep it.', example: 'active' })
  status: CouponStatus;

  @ApiTimeProperty('When it was made.')
  createdAt: string;

  @ApiTimeProperty('When it last changed (archived).')
  updatedAt: string;
}
