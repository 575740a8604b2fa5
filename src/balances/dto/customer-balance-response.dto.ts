import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiTimeProperty } from '../../common/api-docs/api-properties';

@ApiSchema({ name: 'BalanceAmount' })
export class BalanceAmountDto {
  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({ type: 'integer', description: 'The sum of the entries in this currency, minor units; never negative.', example: 1600 })
  amount: number;
}

@ApiSchema({ name: 'BalanceEntry' })
export class BalanceEntryResponseDto {
  @ApiIdProperty('The entry id.')
  id: string;

  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({
    enum: ['proration_credit', 'applied', 'adjustment', 'refund'],
    description: '`proration_credit`: unused days of a paid period; `applied`: used by a charge; `refund`: a charge refunded to the balance.',
    example: 'proration_credit',
  })
  kind: string;

  @ApiProperty({ type: 'integer', description: 'Signed, minor units: credits positive, applications negative.', example: 1600 })
  amount: number;

  @ApiIdProperty('The subscription whose change made it.', { nullable: true })
  subscriptionId: string | null;

  @ApiIdProperty('The charge it was applied to, or the charge refunded.', { nullable: true })
  chargeId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'What it is for, for people.', example: 'Pro → Basic, 16 of 31 days' })
  description: string | null;

  @ApiTimeProperty('When it was booked (business time).')
  createdAt: string;
}

@ApiSchema({ name: 'CustomerBalance' })
export class CustomerBalanceResponseDto {
  @ApiProperty({ type: [BalanceAmountDto], description: 'One per currency the customer has entries in.' })
  balances: BalanceAmountDto[];

  @ApiProperty({ type: [BalanceEntryResponseDto], description: 'The newest 100 entries, newest first.' })
  entries: BalanceEntryResponseDto[];
}
