import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import { PlanLineResponseDto } from '../plans/plan-line-response.dto';
import type { PendingItemSource, PendingItemStatus } from './pending-item.entity';

/** Documentation of a pending item as pending-item-response.ts builds it. */
@ApiSchema({ name: 'PendingItem' })
export class PendingItemResponseDto {
  @ApiIdProperty('The pending item id.')
  id: string;

  @ApiIdProperty('The subscription whose next period charge carries it.')
  subscriptionId: string;

  @ApiIdProperty('The customer charged.')
  customerId: string;

  @ApiProperty({
    enum: ['merchant', 'setup_fee'],
    description: "`merchant`: made with `when: next_renewal`; `setup_fee`: the plan's setup fee of a subscription without a trial, billed with its first paid period.",
    example: 'merchant',
  })
  source: PendingItemSource;

  @ApiProperty({ type: [PlanLineResponseDto], description: "The cart lines the period charge's invoice gets, each with its own VAT rate." })
  lines: PlanLineResponseDto[];

  @ApiProperty({ type: 'integer', description: 'Sum of price × quantity over the lines, in minor units.', example: 1500 })
  amount: number;

  @ApiCurrencyProperty("The subscription's currency.")
  currency: string;

  @ApiNullableText('What it is for, as given.', 'Extra seat for March')
  description: string | null;

  @ApiNullableText('Your own unique name for it, as given.', 'order-2027-0042')
  reference: string | null;

  @ApiProperty({
    enum: ['pending', 'billed', 'canceled'],
    description: "`pending`: the subscription's next period charge carries it; `billed`: on that charge's invoice (`chargeId`); `canceled`: dropped (DELETE, or the subscription ended first).",
    example: 'pending',
  })
  status: PendingItemStatus;

  @ApiIdProperty('The period charge that carried it, once billed.', { nullable: true })
  chargeId: string | null;

  @ApiTimeProperty('When it was made.')
  createdAt: string;

  @ApiTimeProperty('When it last changed (billed, canceled).')
  updatedAt: string;
}
