import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import { REFUND_DESTINATIONS, REFUND_REASONS, REFUND_STATUSES, RefundDestination, RefundReason, RefundStatus } from './refund.entity';

/** Documentation of a refund as refund-response.ts builds it. */
@ApiSchema({ name: 'Refund' })
export class RefundResponseDto {
  @ApiIdProperty('The refund id.')
  id: string;

  @ApiIdProperty('The charge refunded.')
  chargeId: string;

  @ApiIdProperty('The customer the money goes back to.')
  customerId: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: "Its place among the charge's refunds, from 1.", example: 1 })
  number: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Minor units.', example: 1000 })
  amount: number;

  @ApiCurrencyProperty("The charge's currency.")
  currency: string;

  @ApiProperty({
    enum: REFUND_DESTINATIONS,
    description: '`card`: through the provider, to the card the charge was paid with; `balance`: to the customer\'s credit balance.',
    example: 'card',
  })
  to: RefundDestination;

  @ApiProperty({
    enum: REFUND_STATUSES,
    description: '`pending`: at (or on its way to) the provider; `succeeded`; `failed` (`failureCode` says why). A refund to the balance is `succeeded` at once.',
    example: 'succeeded',
  })
  status: RefundStatus;

  @ApiProperty({ enum: REFUND_REASONS, nullable: true, description: 'Why the money goes back, when given.', example: 'requested_by_customer' })
  reason: RefundReason | null;

  @ApiNullableText('Your own name for the refund, when you gave one.', 'crm-ticket-4711')
  reference: string | null;

  @ApiNullableText("The refund's id at the provider (card refunds).", '100')
  providerRefundId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "Why it failed: the provider's failure code, or `rejected:<code>` when it refused the refund.", example: null })
  failureCode: string | null;

  @ApiTimeProperty('When it was accepted.')
  createdAt: string;

  @ApiTimeProperty('When it last changed.')
  updatedAt: string;

  @ApiTimeProperty('When it reached succeeded or failed.', { nullable: true })
  completedAt: string | null;
}
