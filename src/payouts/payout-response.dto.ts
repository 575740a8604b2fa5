import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiMetadataAnswer, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import { PAYOUT_STATUSES, PayoutStatus } from './payout.entity';

/** Documentation of a payout as payout-responses.ts builds it. */
@ApiSchema({ name: 'Payout' })
export class PayoutResponseDto {
  @ApiIdProperty('The payout id.')
  id: string;

  @ApiIdProperty('The destination paid to.')
  destinationId: string;

  @ApiIdProperty('The batch it came in, if any.', { nullable: true })
  batchId: string | null;

  @ApiNullableText('Your own name for the payout, when you gave one.', 'invoice-2027-0042')
  reference: string | null;

  @ApiProperty({ type: 'integer', description: 'Minor units.', example: 10000 })
  amount: number;

  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({
    enum: PAYOUT_STATUSES,
    description: '`pending`: waiting for its destination or not yet at the provider; `processing`: the withdrawal is pending; `succeeded`; `failed` (`failureCode` says why).',
    example: 'succeeded',
  })
  status: PayoutStatus;

  @ApiNullableText("The withdrawal's id at the provider.", '4')
  withdrawalId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "Why it failed: the provider's code.", example: null })
  failureCode: string | null;

  @ApiMetadataAnswer()
  metadata: Record<string, unknown>;

  @ApiTimeProperty('When it was accepted.')
  createdAt: string;

  @ApiTimeProperty('When it last changed.')
  updatedAt: string;

  @ApiTimeProperty('When it reached succeeded or failed.', { nullable: true })
  completedAt: string | null;
}
