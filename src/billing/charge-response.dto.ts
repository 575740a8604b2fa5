import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import { PlanLineResponseDto } from '../plans/plan-line-response.dto';
import { ChargeAttemptResponseDto } from './charge-attempt-response.dto';
import type { ChargeStatus, ChargeWait } from './charge.entity';
import { CHARGE_STATUSES } from './list-charges-query.dto';

/** Documentation of a charge (one billing period of one subscription, a proration or a one-off) as charge-response.ts builds it. */
@ApiSchema({ name: 'Charge' })
export class ChargeResponseDto {
  @ApiIdProperty('The charge id.')
  id: string;

  @ApiIdProperty('The subscription billed; null for a one-off charge that names none.', { nullable: true })
  subscriptionId: string | null;

  @ApiIdProperty('The customer charged.')
  customerId: string;

  @ApiTimeProperty('Start of the billing period (null for a one-off).', { nullable: true })
  periodStart: string | null;

  @ApiTimeProperty('End of the billing period (null for a one-off).', { nullable: true })
  periodEnd: string | null;

  @ApiProperty({
    enum: ['period', 'proration', 'one_off'],
    description: "`period`: a billing period's charge; `proration`: what a change within a period owes; `one_off`: money outside the schedule (POST /customers/{id}/charges, or a plan's setup fee at the start of a subscription with a trial).",
    example: 'period',
  })
  kind: string;

  @ApiNullableText("A proration's cart line (both plans, `d of D days`); a one-off's invoice description.", 'Onboarding session, 2 hours')
  description: string | null;

  @ApiProperty({
    type: [PlanLineResponseDto],
    nullable: true,
    description:
      "The cart fixed with the charge, before the credit balance: a one-off's lines, or a period charge's plan lines × seats followed by the pending items and setup fee it carries; they sum to `amount`. Null: the plan's lines × the seats (or a proration's one line). What the credit balance paid (`paidFromBalance`) is taken off the lines in proportion on the provider's invoice, each keeping its VAT rate.",
  })
  lines: PlanLineResponseDto[] | null;

  @ApiNullableText("A one-off's reference, as given.", 'order-2027-0042')
  reference: string | null;

  @ApiProperty({ type: 'integer', description: 'Minor units.', example: 2500 })
  amount: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: "What the subscription's coupon took off this period charge (minor units); `amount` is already net of it. 0 without a coupon, and for prorations and one-offs.",
    example: 0,
  })
  discountAmount: number;

  @ApiProperty({ type: 'integer', description: "The part of `amount` the customer's credit balance paid (minor units); the provider was asked for the rest.", example: 0 })
  paidFromBalance: number;

  @ApiProperty({
    type: 'integer',
    description: 'What its succeeded refunds gave back, to the card and to the credit balance (minor units); refunds still pending are not counted.',
    example: 0,
  })
  amountRefunded: number;

  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({
    enum: CHARGE_STATUSES,
    description:
      '`pending`: not at the provider yet; `processing`: at the provider, outcome not final; `succeeded`; `retrying`: declined, `nextAttemptAt` set; `failed`: dunning exhausted, a hard decline waiting for a new card, or a one-off declined (one-offs are not dunned); `canceled`; `skipped`: a period missed during downtime, never charged.',
    example: 'succeeded',
  })
  status: ChargeStatus;

  @ApiNullableText("The invoice's id at the provider.", '2Zm9Uq1cJA')
  invoiceId: string | null;

  @ApiTimeProperty('When the next attempt is due (pending or retrying only).', { nullable: true })
  nextAttemptAt: string | null;

  @ApiProperty({
    enum: ['allowed_hours', 'attempt_cap'],
    nullable: true,
    description:
      "Why the next attempt waits for `nextAttemptAt` (pending or retrying only): `allowed_hours`, smart dunning attempts only between 08:00 and 21:00 in the subscription's timezone, so an attempt due outside them waits for the next 08:00 there on the billing clock; `attempt_cap`, one more attempt would pass the card network's 15 attempts in 30 days. null when no such rule moved it (a first attempt due, a retry on its ladder's time).",
    example: null,
  })
  waitingFor: ChargeWait | null;

  @ApiProperty({ description: 'true: a hard decline (or a one-off whose customer has no card yet); the charge is attempted again once the customer binds a new card.', example: false })
  waitingForNewCard: boolean;

  @ApiNullableText("The provider's code of the last decline.", 'insufficientFunds')
  lastErrorCode: string | null;

  @ApiProperty({
    enum: ['fixed', 'smart', 'holdout'],
    nullable: true,
    description:
      'How the charge was dunned once declined: `fixed` ladder, `smart`, or `holdout` (a smart subscription kept on the fixed ladder by DUNNING_HOLDOUT_PERCENT to measure what smart recovers). null until a decline.',
    example: null,
  })
  dunningStrategy: 'fixed' | 'smart' | 'holdout' | null;

  @ApiProperty({
    enum: ['retry', 'card_update', 'manual_retry', 'balance'],
    nullable: true,
    description:
      "What paid a charge whose first attempt was declined: `retry` (a scheduled attempt on the declined card), `card_update` (an attempt on a card bound since the first decline), `manual_retry` (an operator's retry), `balance` (the credit balance). null for a charge paid at its first attempt or not paid.",
    example: null,
  })
  recoveredBy: 'retry' | 'card_update' | 'manual_retry' | 'balance' | null;

  @ApiProperty({ type: [ChargeAttemptResponseDto], description: 'Every payment attempt, first first.' })
  attempts: ChargeAttemptResponseDto[];

  @ApiTimeProperty('When the charge was created.', { nullable: true })
  createdAt: string | null;

  @ApiTimeProperty('When the charge last changed.', { nullable: true })
  updatedAt: string | null;
}
