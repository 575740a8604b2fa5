import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiMetadataAnswer, ApiTimeProperty } from '../../common/api-docs/api-properties';
import type { SubscriptionStatus } from '../subscription.entity';
import { SUBSCRIPTION_STATUSES } from './list-subscriptions-query.dto';

@ApiSchema({ name: 'PendingChange' })
export class PendingChangeResponseDto {
  @ApiIdProperty('The plan it moves to.')
  planId: string;

  @ApiProperty({ description: 'The quantity it moves to.', example: 2 })
  quantity: number;

  @ApiTimeProperty('When it applies: the end of the current period (the next renewal).')
  effectiveAt: string;
}

@ApiSchema({ name: 'BillingError' })
export class BillingErrorResponseDto {
  @ApiProperty({
    enum: ['amount_over_limit', 'database_refused', 'internal_error'],
    description:
      '`amount_over_limit`: the period amount (plan amount × quantity) passes 10^15 minor units (a subscription made before that limit); `database_refused`: the database refused the period\'s rows; `internal_error`: anything else (the daemon log has it).',
    example: 'amount_over_limit',
  })
  code: string;

  @ApiProperty({ description: 'What failed, for people.', example: 'the period amount 1000000000000000 × 10000 passes the limit of 1000000000000000 minor units per period (quantity at most 1 on this plan)' })
  message: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Billing passes that failed on it in a row.', example: 1 })
  failures: number;

  @ApiTimeProperty('When the first of them ran (the billing clock).')
  since: string;
}

@ApiSchema({ name: 'SubscriptionDiscount' })
export class SubscriptionDiscountResponseDto {
  @ApiIdProperty('The coupon applied.')
  couponId: string;

  @ApiProperty({ description: "The coupon's code.", example: 'SPRING50' })
  code: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Percent off each period charge it covers, or null.', example: 50 })
  percentOff: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "Minor units off each period charge it covers (in the plan's currency), or null.", example: null })
  amountOff: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Period charges it still covers; null: forever. Trials and prorations do not count.', example: 2 })
  periodsLeft: number | null;
}

/** Documentation of a subscription as the admin API answers it (subscription-response.ts builds it). */
@ApiSchema({ name: 'Subscription' })
export class SubscriptionResponseDto {
  @ApiIdProperty('The subscription id.')
  id: string;

  @ApiIdProperty('The customer who pays.')
  customerId: string;

  @ApiIdProperty('The plan it bills.')
  planId: string;

  @ApiProperty({ type: 'integer', description: "Seats: every plan line's quantity is multiplied by it; a period costs the plan amount × quantity.", example: 1, minimum: 1, maximum: 10000 })
  quantity: number;

  @ApiProperty({
    type: PendingChangeResponseDto,
    nullable: true,
    description: 'A change waiting for the next renewal (`effective: period_end`), or null.',
  })
  pendingChange: PendingChangeResponseDto | null;

  @ApiProperty({
    enum: SUBSCRIPTION_STATUSES,
    description:
      '`incomplete`: the customer has no card yet, nothing is charged; `trialing`; `active`; `past_due`: a charge failed and dunning runs; `paused`; `unpaid`: dunning ended with finalAction unpaid; `canceled`.',
    example: 'active',
  })
  status: SubscriptionStatus;

  @ApiProperty({ description: 'IANA time zone its billing days are counted in.', example: 'Europe/Moscow' })
  timezone: string;

  @ApiTimeProperty('When billing started or starts.', { nullable: true })
  startAt: string | null;

  @ApiTimeProperty('Start of the current billing period.', { nullable: true })
  currentPeriodStart: string | null;

  @ApiTimeProperty('End of the current billing period.', { nullable: true })
  currentPeriodEnd: string | null;

  @ApiTimeProperty('When the next period is charged; null when nothing is due (canceled, paused, unpaid).', { nullable: true })
  nextBillingAt: string | null;

  @ApiTimeProperty('End of the trial, when the plan has one.', { nullable: true })
  trialEndsAt: string | null;

  @ApiProperty({ description: 'true: it ends when the current period ends.', example: false })
  cancelAtPeriodEnd: boolean;

  @ApiTimeProperty('When it was canceled.', { nullable: true })
  canceledAt: string | null;

  @ApiTimeProperty('When it was paused, while paused.', { nullable: true })
  pausedAt: string | null;

  @ApiTimeProperty('When it was created.', { nullable: true })
  createdAt: string | null;

  @ApiTimeProperty('When it last changed.', { nullable: true })
  updatedAt: string | null;

  @ApiMetadataAnswer()
  metadata: Record<string, unknown>;

  @ApiProperty({
    type: BillingErrorResponseDto,
    nullable: true,
    description:
      'Set while billing passes cannot make its due period into a charge: it is left out of the pass (the others are billed) and tried again; null once a pass bills it.',
  })
  billingError: BillingErrorResponseDto | null;

  @ApiProperty({ type: SubscriptionDiscountResponseDto, nullable: true, description: 'The coupon in force (one at a time), or null.' })
  discount: SubscriptionDiscountResponseDto | null;
}
